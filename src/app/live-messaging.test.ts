/**
 * The live messaging loop end to end, as the server's worker runs it (every job handler registered, the local
 * channel, the webhook routes with their local secrets): the day's decision is planned and sent on WhatsApp
 * from the stored template library, "Taken" tapped on the phone becomes a dose confirmed by WhatsApp reply,
 * STOP by SMS opts out of every channel and is confirmed, and the next day's WhatsApp message is refused for
 * want of consent. The browser version of the same story is tests/e2e/live-messaging.spec.ts.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentEvents, doseEvents, messages, patients, policyDecisions } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { approveDemoTemplates, ensureTemplateLibrary } from '@/features/message-templates';
import { planMessagingDay } from '@/features/messaging-loop';
import { createTestPatient, requestMessageNow, sendPhoneReply } from '@/features/messaging-webhooks';
import { getEnvironment } from '@/lib/env';
import {
  inboundMessageJobKind,
  messageSendJobKind,
  messagingPlanJobKind,
  outboundMessageFailedJobKind,
  serviceReplyJobKind,
} from '@/lib/messaging-job-kinds';
import { claimNextJob, runClaimedJob } from '@/lib/server/jobs';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { POST as postTwilioSms } from './api/webhooks/twilio/sms/route';
import { POST as postWhatsApp } from './api/webhooks/whatsapp/route';
import { registerJobHandlers } from '@/cli/server/register-job-handlers';

process.env.DEV_OUTBOX = 'true';
for (const name of ['WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN', 'WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'])
  delete process.env[name];
for (const name of ['TWILIO_AUTH_TOKEN', 'TWILIO_ACCOUNT_SID', 'TWILIO_FROM']) delete process.env[name];

const messagingKinds = [messagingPlanJobKind, messageSendJobKind, serviceReplyJobKind, outboundMessageFailedJobKind, inboundMessageJobKind];

/** Calls the webhook route handlers as the server would for /dev/phone's signed posts. */
async function post(url: string, init: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  return new URL(url).pathname === '/api/webhooks/whatsapp' ? postWhatsApp(request) : postTwilioSms(request);
}

describe.each(testDatabaseBackends())('live messaging on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  let patientId: string;

  /**
   * Runs every due messaging job, as the worker would, until none is left (bounded). The clock is `at` or the
   * real time, whichever is later: a job's handler stamps what it enqueues with the real time.
   */
  async function runDueJobs(at: Date): Promise<string[]> {
    const ran: string[] = [];
    for (let round = 0; round < 50; round += 1) {
      const clock = () => new Date(Math.max(at.getTime(), Date.now()));
      const job = await claimNextJob({ database: database.database, kinds: messagingKinds, now: clock() });
      if (job === null) return ran;
      await runClaimedJob({ database: database.database, job, clock });
      ran.push(job.kind);
    }
    throw new Error('the messaging jobs did not settle in 50 runs');
  }

  beforeAll(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
    await registerJobHandlers();
    await ensureTemplateLibrary({ database: database.database });
    // As the server does for the demo: utility templates approved, so a reminder can go by WhatsApp outside the window.
    expect(await approveDemoTemplates({ database: database.database })).toBeGreaterThan(0);
    expect(await approveDemoTemplates({ database: database.database })).toBe(0);
    ({ id: patientId } = await createTestPatient({
      database: database.database,
      environment: getEnvironment(),
      input: { language: 'en', timezone: 'Europe/Madrid' },
      now: new Date(),
    }));
  });
  afterAll(async () => {
    server.restore();
    await database.dispose();
  });

  it('enrols a test patient in fixed-daily unless told, in the chosen programme when told, and refuses an unknown one', async () => {
    const db = database.database;
    const programmeOf = async (id: string) =>
      (await db.select({ programme: patients.messagingProgramme }).from(patients).where(eq(patients.id, id)))[0]?.programme;
    expect(await programmeOf(patientId)).toBe('fixed-daily');
    const personalised = await createTestPatient({
      database: db,
      environment: getEnvironment(),
      input: { programme: 'personalised' },
      now: new Date(),
    });
    expect(await programmeOf(personalised.id)).toBe('personalised');
    await expect(
      createTestPatient({ database: db, environment: getEnvironment(), input: { programme: 'hourly' }, now: new Date() }),
    ).rejects.toThrow(/programme must be one of/);
  });

  it('sends the day’s message on WhatsApp, and "Taken" becomes a dose confirmed by WhatsApp reply', async () => {
    const db = database.database;
    const now = new Date();
    await requestMessageNow({ database: db, environment: getEnvironment(), input: { patientId }, now });
    expect(await runDueJobs(now)).toEqual([messagingPlanJobKind, messageSendJobKind]);

    const [decision] = await db
      .select({ id: policyDecisions.id, status: policyDecisions.status, templateId: policyDecisions.templateId })
      .from(policyDecisions)
      .where(eq(policyDecisions.patientId, patientId));
    expect(decision).toMatchObject({ status: 'sent', templateId: expect.stringMatching(/^reminder\./) });
    const [outbound] = await db
      .select({ id: messages.id, channel: messages.channel, templateVersion: messages.templateVersion, body: messages.body })
      .from(messages)
      .where(and(eq(messages.patientId, patientId), eq(messages.direction, 'outbound'), eq(messages.policyDecisionId, decision!.id)));
    expect(outbound).toMatchObject({ channel: 'whatsapp', templateVersion: 2 });
    expect(outbound!.body).not.toMatch(/\{\{/);

    await sendPhoneReply({
      database: db,
      environment: getEnvironment(),
      input: { kind: 'button', patientId, messageId: outbound!.id, action: 'taken' },
      now,
      post,
    });
    expect(await runDueJobs(now)).toEqual([inboundMessageJobKind]);
    expect(
      await db.select({ status: doseEvents.status, source: doseEvents.source }).from(doseEvents).where(eq(doseEvents.patientId, patientId)),
    ).toEqual([{ status: 'taken', source: 'whatsapp-reply' }]);
  });

  it('STOP by SMS opts out of every channel, is confirmed by SMS, and the next WhatsApp message is not sent', async () => {
    const db = database.database;
    const now = new Date();
    await sendPhoneReply({
      database: db,
      environment: getEnvironment(),
      input: { kind: 'text', patientId, channel: 'sms', text: 'STOP' },
      now,
      post,
    });
    expect(await runDueJobs(now)).toEqual([inboundMessageJobKind, serviceReplyJobKind]);
    const optOuts = await db
      .select({ channel: consentEvents.channel, granted: consentEvents.granted, source: consentEvents.source })
      .from(consentEvents)
      .where(and(eq(consentEvents.patientId, patientId), eq(consentEvents.granted, false)));
    expect(new Set(optOuts.map((event) => event.channel))).toEqual(new Set(['whatsapp', 'sms']));
    expect(optOuts.every((event) => event.source === 'sms-keyword')).toBe(true);
    const confirmations = await db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.patientId, patientId), eq(messages.channel, 'sms'), eq(messages.direction, 'outbound')));
    expect(confirmations).toHaveLength(1);

    // Tomorrow's decision: the policy still chooses a message, and the send path refuses it.
    const tomorrow = new Date(now.getTime() + 24 * 3_600_000);
    await planMessagingDay({ database: db, now: tomorrow, patientIds: [patientId], devSendNow: true });
    expect(await runDueJobs(tomorrow)).toEqual([messageSendJobKind]);
    const decisions = await db
      .select({ status: policyDecisions.status, reason: policyDecisions.statusReason })
      .from(policyDecisions)
      .where(eq(policyDecisions.patientId, patientId))
      .orderBy(asc(policyDecisions.localDate));
    expect(decisions).toEqual([
      { status: 'sent', reason: null },
      { status: 'not-sent', reason: 'no-consent' },
    ]);
    const whatsApp = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.patientId, patientId), eq(messages.channel, 'whatsapp'), eq(messages.direction, 'outbound')));
    expect(whatsApp).toHaveLength(1);
  });
});
