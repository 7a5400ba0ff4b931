import 'server-only';
/**
 * Test support (not imported by application code): the set-up the survey-by-message tests share: a session user,
 * recording channel adapters, the patient with their organisation and clinicians, and the tables to clear between
 * tests. Each test file keeps its own ids, phone number and clock, passed in here.
 */
import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '@/db/client';
import {
  authUsers,
  consentEvents,
  doseEvents,
  jobs,
  messages,
  organisationMemberships,
  organisations,
  patientPersonaPosteriors,
  patients,
  surveyMessageChunks,
  surveyResponses,
} from '@/db/schema';
import { actOnInboundMessage } from '@/features/message-replies';
import type { ChannelAdapters, OutboundContent } from '@/features/message-sending';
import { recordWebhookEvents } from '@/features/messaging-webhooks';
import { surveyMessageSendJobKind } from '@/lib/messaging-job-kinds';
import type { SessionUser } from '@/lib/server/session';
import { sendSurveyMessage } from '../send-survey-message';

export type SentMessage = { to: string } & OutboundContent;

export type RecordingAdapters = {
  adapters: ChannelAdapters;
  /** Every message the adapters accepted, in order (a failed SMS is not in it). */
  sent: SentMessage[];
  /** From now on every SMS send throws, as a provider that is down does, or (false) succeeds again. */
  failSms: (fails: boolean) => void;
  /** Empties `sent` and lets SMS succeed again (for a beforeEach). */
  reset: () => void;
};

/**
 * WhatsApp and SMS adapters that record what they send and return provider ids `wamid.<prefix>.<n>` and
 * `SM<prefix><n>`, unique within the test file.
 */
export function createRecordingAdapters(options: { prefix: string }): RecordingAdapters {
  const sent: SentMessage[] = [];
  let counter = 0;
  let smsFails = false;
  const adapters: ChannelAdapters = {
    whatsapp: {
      channel: 'whatsapp',
      provider: 'local',
      send: async (message) => {
        sent.push(message);
        return { providerMessageId: `wamid.${options.prefix}.${(counter += 1)}`, status: 'sent' };
      },
    },
    sms: {
      channel: 'sms',
      provider: 'local',
      send: async (message) => {
        if (smsFails) throw new Error('provider unavailable');
        sent.push(message);
        return { providerMessageId: `SM${options.prefix}${(counter += 1)}`, status: 'sent' };
      },
    },
  };
  return {
    adapters,
    sent,
    failSms: (fails) => {
      smsFails = fails;
    },
    reset: () => {
      sent.length = 0;
      smsFails = false;
    },
  };
}

/**
 * Deletes what a survey-by-message test writes, children first. `also` are further tables of the file's own,
 * deleted after the consent events and before the messages.
 */
export async function clearSurveyMessageTables(db: Database, options: { also?: PgTable[] } = {}): Promise<void> {
  await db.delete(surveyMessageChunks);
  await db.delete(surveyResponses);
  await db.delete(patientPersonaPosteriors);
  for (const table of [jobs, doseEvents, consentEvents, ...(options.also ?? [])]) await db.delete(table);
  await db.delete(messages);
}

export type SurveyTestStaff = {
  user: SessionUser;
  /** The name of the user's account row; the session user's name unless given. */
  name?: string;
  /** A member of another organisation (`<prefix>-org-out`) rather than the patient's. */
  outOfScope?: boolean;
};

/**
 * The patient `P-<PREFIX>` (account `<prefix>-patient`, `<prefix>@medaptive.test`, a verified phone number, zone
 * UTC) of organisation `<prefix>-org`, and the staff's accounts and memberships. Returns the patient's id.
 */
export async function insertSurveyTestPatient(
  db: Database,
  options: { prefix: string; phone: string; staff: SurveyTestStaff[] },
): Promise<string> {
  const { prefix, phone, staff } = options;
  const organisationId = `${prefix}-org`;
  const otherOrganisationId = `${prefix}-org-out`;
  await db
    .insert(organisations)
    .values([
      { id: organisationId, name: 'In scope' },
      ...(staff.some((member) => member.outOfScope === true) ? [{ id: otherOrganisationId, name: 'Out of scope' }] : []),
    ]);
  const patientUserId = `${prefix}-patient`;
  await db
    .insert(authUsers)
    .values([
      { id: patientUserId, name: 'Patient', email: `${prefix}@medaptive.test`, phoneNumber: phone, phoneNumberVerified: true },
      ...staff.map((member) => ({ id: member.user.id, name: member.name ?? member.user.name, email: member.user.email })),
    ]);
  await db.insert(organisationMemberships).values(
    staff.map((member) => ({
      userId: member.user.id,
      organisationId: member.outOfScope === true ? otherOrganisationId : organisationId,
    })),
  );
  const [row] = await db
    .insert(patients)
    .values({
      pseudonym: `P-${prefix.toUpperCase()}`,
      source: 'test',
      sourceRecordId: prefix,
      userId: patientUserId,
      organisationId,
      timezone: 'UTC',
    })
    .returning({ id: patients.id });
  return row!.id;
}

export type QueuedSurveyMessageJob = { id: string; payload: unknown; runAt: Date };

/**
 * Runs the queued survey-message-send jobs once each, as the worker would: each one `due` takes (asked as its turn
 * comes) is deleted, then its use case runs with the adapters at `now()`. A send that throws rejects the run.
 */
export async function runSurveyMessageJobs(options: {
  database: Database;
  adapters: ChannelAdapters;
  now: () => Date;
  due: (job: QueuedSurveyMessageJob) => boolean;
}): Promise<Awaited<ReturnType<typeof sendSurveyMessage>>[]> {
  const { database, adapters } = options;
  const queued = await database
    .select({ id: jobs.id, payload: jobs.payload, runAt: jobs.runAt })
    .from(jobs)
    .where(eq(jobs.kind, surveyMessageSendJobKind));
  const outcomes = [];
  for (const job of queued) {
    if (!options.due(job)) continue;
    await database.delete(jobs).where(eq(jobs.id, job.id));
    outcomes.push(
      await sendSurveyMessage({
        database,
        adapters,
        now: options.now(),
        ...(job.payload as { responseId: string; clarifyChunkId?: string; replyId?: string; remindChunkId?: string }),
      }),
    );
  }
  return outcomes;
}

export type InboundEvent = Parameters<typeof recordWebhookEvents>[0]['events'][number];

/** A provider's webhook carrying one inbound message, recorded, then the 'inbound-message-received' job's use case. */
export async function receiveInboundMessage(options: { database: Database; event: InboundEvent; now: Date }) {
  const { database, now } = options;
  const recording = await recordWebhookEvents({ database, events: [options.event] });
  const messageId = recording.inbound[0]!.messageId;
  return { messageId, outcome: await actOnInboundMessage({ database, messageId, now }) };
}
