/**
 * Replies become data, through the real path: a webhook event recorded by recordWebhookEvents, then the
 * 'inbound-message-received' job's use case. Taken → one dose event (a rerun adds none); "no, ran out" →
 * missed with its reason; STOP → every channel opted out and a stop confirmation queued; HELP → the help
 * answer; unrecognised → listed for the patient's clinicians (not others), until marked read.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditLog,
  authUsers,
  consentEvents,
  doseEvents,
  jobs,
  messages,
  organisationMemberships,
  organisations,
  patients,
  policyDecisions,
  webhookEvents,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { keywordReplies } from '@/engine/messaging';
import { getPatientConsents, recordConsent } from '@/features/consent';
import { recordWebhookEvents, twilioInboundEvent, whatsAppInboundEvent } from '@/features/messaging-webhooks';
import type { SessionUser } from '@/lib/server/session';
import { actOnInboundMessage } from './act-on-inbound-message';
import { listRepliesToRead } from './list-replies-to-read';
import { markReplyRead } from './mark-reply-read';

const phone = '+34600222444';
const digits = '34600222444';
const sentAt = new Date('2026-11-24T08:00:00Z');
const repliedAt = new Date('2026-11-24T08:05:00Z');
const now = new Date('2026-11-24T08:06:00Z');

const user = (id: string, role: SessionUser['role']): SessionUser => ({
  id,
  role,
  email: `${id}@medaptive.test`,
  name: id,
  phoneNumber: null,
  twoFactorEnabled: false,
});
const clinician = user('clinician-in', 'clinician');
const otherClinician = user('clinician-out', 'clinician');

describe.each(testDatabaseBackends())('message replies on $name', (backend) => {
  let database: TestDatabase;
  let patientId: string;
  let counter = 0;

  beforeAll(async () => {
    database = await backend.create();
    const db = database.database;
    await db.insert(organisations).values([
      { id: 'org-in', name: 'In scope' },
      { id: 'org-out', name: 'Out of scope' },
    ]);
    await db.insert(authUsers).values([
      { id: 'user-rp', name: 'Patient', email: 'rp@medaptive.test', phoneNumber: phone, phoneNumberVerified: true },
      { id: clinician.id, name: 'C', email: clinician.email },
      { id: otherClinician.id, name: 'O', email: otherClinician.email },
    ]);
    await db.insert(organisationMemberships).values([
      { userId: clinician.id, organisationId: 'org-in' },
      { userId: otherClinician.id, organisationId: 'org-out' },
    ]);
    [{ id: patientId }] = (await db
      .insert(patients)
      .values({
        pseudonym: 'P-RP',
        source: 'test',
        sourceRecordId: 'rp',
        userId: 'user-rp',
        organisationId: 'org-in',
        timezone: 'Europe/Madrid',
      })
      .returning({ id: patients.id })) as [{ id: string }];
  });
  afterAll(async () => {
    await database.dispose();
  });
  beforeEach(async () => {
    const db = database.database;
    for (const table of [jobs, webhookEvents, doseEvents, consentEvents, policyDecisions]) await db.delete(table);
    await db.delete(messages);
  });

  async function outboundWhatsApp(wamid: string, withDecision: boolean) {
    const db = database.database;
    const [decision] = withDecision
      ? await db
          .insert(policyDecisions)
          .values({
            patientId,
            source: 'live',
            localDate: '2026-11-24',
            decidedAt: sentAt,
            policyName: 'fixed-daily',
            policyVersion: '1',
            context: { firstDoseMinute: 9 * 60 },
            action: 'message',
            propensity: 1,
            randomSeed: 'seed',
            status: 'sent',
          })
          .returning({ id: policyDecisions.id })
      : [];
    await db.insert(messages).values({
      patientId,
      channel: 'whatsapp',
      direction: 'outbound',
      body: 'Time for your medicine',
      sentAt,
      status: 'delivered',
      providerMessageId: wamid,
      policyDecisionId: decision?.id ?? null,
      source: 'live',
      sourceRecordId: wamid,
    });
  }

  async function receive(event: Parameters<typeof recordWebhookEvents>[0]['events'][number]) {
    const recording = await recordWebhookEvents({ database: database.database, events: [event] });
    return recording.inbound[0]!.messageId;
  }
  const whatsApp = (message: Record<string, unknown>) =>
    whatsAppInboundEvent({
      from: digits,
      id: `wamid.in.${(counter += 1)}`,
      timestamp: String(repliedAt.getTime() / 1000),
      ...message,
    } as never)!;
  const sms = (body: string) =>
    twilioInboundEvent({ messageSid: `SMreply${(counter += 1)}`, from: phone, body, numMedia: 0, at: repliedAt });

  it('records the Taken button as one taken dose at the decision’s dose time; a rerun records nothing more', async () => {
    await outboundWhatsApp('wamid.out.1', true);
    const messageId = await receive(
      whatsApp({ type: 'button', button: { payload: 'dose.taken', text: 'Taken ✓' }, context: { id: 'wamid.out.1' } }),
    );
    const first = await actOnInboundMessage({ database: database.database, messageId, now });
    expect(first).toEqual({ kind: 'dose', status: 'taken', recorded: true, answered: 'reply-to' });
    expect(await actOnInboundMessage({ database: database.database, messageId, now })).toMatchObject({ recorded: false });
    const rows = await database.database
      .select({
        status: doseEvents.status,
        source: doseEvents.source,
        scheduledAt: doseEvents.scheduledAt,
        confirmedAt: doseEvents.confirmedAt,
      })
      .from(doseEvents);
    // 09:00 in Madrid (UTC+1 in November) on the decision's date.
    expect(rows).toEqual([
      { status: 'taken', source: 'whatsapp-reply', scheduledAt: new Date('2026-11-24T08:00:00Z'), confirmedAt: repliedAt },
    ]);
    expect(await listRepliesToRead({ database: database.database, actor: clinician, patientId })).toEqual([]);
  });

  it('marks "no, ran out" by SMS missed with the reason ran-out, answering the latest message', async () => {
    const db = database.database;
    await db.insert(messages).values({
      patientId,
      channel: 'sms',
      direction: 'outbound',
      body: 'Did you take it? Reply 1',
      sentAt,
      status: 'delivered',
      providerMessageId: 'SMout1',
      source: 'live',
      sourceRecordId: 'SMout1',
    });
    const messageId = await receive(sms('no, ran out'));
    expect(await actOnInboundMessage({ database: db, messageId, now })).toEqual({
      kind: 'dose',
      status: 'missed',
      recorded: true,
      answered: 'latest',
    });
    const [row] = await db
      .select({
        status: doseEvents.status,
        reason: doseEvents.missedReason,
        source: doseEvents.source,
        scheduledAt: doseEvents.scheduledAt,
      })
      .from(doseEvents);
    expect(row).toEqual({ status: 'missed', reason: 'ran-out', source: 'sms-reply', scheduledAt: sentAt });
  });

  it('opts out of every channel on STOP by SMS and queues the stop confirmation once', async () => {
    const db = database.database;
    await recordConsent({
      database: db,
      patientId,
      channels: ['whatsapp', 'sms', 'app'],
      purposes: ['reminders', 'education'],
      granted: true,
      source: 'profile',
      actorUserId: null,
      at: sentAt,
    });
    const messageId = await receive(sms('STOP'));
    expect(await actOnInboundMessage({ database: db, messageId, now })).toEqual({
      kind: 'keyword',
      action: 'opt-out',
      consentChanges: 6,
      serviceReply: 'stop-confirmation',
    });
    await actOnInboundMessage({ database: db, messageId, now });
    const consents = await getPatientConsents({ database: db, patientId });
    expect(consents.current.filter((state) => state.granted)).toEqual([]);
    const replies = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, 'service-reply'));
    expect(replies).toEqual([
      {
        payload: { patientId, channel: 'sms', body: keywordReplies['opt-out'].en, replyToMessageId: messageId, kind: 'stop-confirmation' },
      },
    ]);
  });

  it('answers HELP on WhatsApp with the help text, changing no consent', async () => {
    const db = database.database;
    const messageId = await receive(whatsApp({ type: 'text', text: { body: 'help' } }));
    expect(await actOnInboundMessage({ database: db, messageId, now })).toMatchObject({
      kind: 'keyword',
      action: 'help',
      consentChanges: 0,
    });
    const [reply] = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, 'service-reply'));
    expect(reply?.payload).toMatchObject({ channel: 'whatsapp', kind: 'help', body: keywordReplies.help.en });
  });

  it('keeps "not yet" without a dose event and without listing it', async () => {
    await outboundWhatsApp('wamid.out.2', false);
    const messageId = await receive(whatsApp({ type: 'text', text: { body: 'not yet' } }));
    expect(await actOnInboundMessage({ database: database.database, messageId, now })).toEqual({ kind: 'kept', reason: 'not-yet' });
    expect(await database.database.select({ id: doseEvents.id }).from(doseEvents)).toEqual([]);
    expect(await listRepliesToRead({ database: database.database, actor: clinician, patientId })).toEqual([]);
  });

  it('lists an unrecognised reply for the patient’s clinician only, until it is marked read (audited)', async () => {
    const db = database.database;
    const messageId = await receive(whatsApp({ type: 'text', text: { body: 'Can I take it with coffee?' } }));
    expect(await actOnInboundMessage({ database: db, messageId, now })).toEqual({ kind: 'kept', reason: 'unrecognised' });
    expect(await listRepliesToRead({ database: db, actor: clinician, patientId })).toEqual([
      {
        id: messageId,
        channel: 'whatsapp',
        receivedAt: repliedAt.toISOString(),
        text: 'Can I take it with coffee?',
        reason: 'unrecognised',
      },
    ]);
    await expect(listRepliesToRead({ database: db, actor: otherClinician, patientId })).rejects.toMatchObject({ code: 'forbidden' });
    // Someone else's patient's reply and an id that does not exist get the same answer: no one can probe ids.
    const unknownId = '00000000-0000-0000-0000-000000000000';
    const refusals = [
      markReplyRead({ database: db, actor: otherClinician, input: { messageId }, now }),
      markReplyRead({ database: db, actor: user('patient-x', 'patient'), input: { messageId }, now }),
      // Any id of Postgres' uuid form is a lookup (the demo data's ids are not version-4 UUIDs), not a validation error.
      markReplyRead({ database: db, actor: clinician, input: { messageId: unknownId }, now }),
      markReplyRead({ database: db, actor: otherClinician, input: { messageId: unknownId }, now }),
    ].map((attempt) =>
      attempt.then(
        () => 'accepted',
        (error: { code: string; httpStatus: number; message: string }) => error,
      ),
    );
    const answers = await Promise.all(refusals);
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toMatchObject({ code: 'not_found', httpStatus: 404, message: expect.stringMatching(/^messageId: /) });
    expect(await markReplyRead({ database: db, actor: clinician, input: { messageId }, now })).toEqual({
      messageId,
      reviewedAt: now.toISOString(),
    });
    expect(await listRepliesToRead({ database: db, actor: clinician, patientId })).toEqual([]);
    const [row] = await db.select({ reviewedBy: messages.reviewedBy }).from(messages).where(eq(messages.id, messageId));
    expect(row?.reviewedBy).toBe(clinician.id);
    const audit = await db
      .select({ outcome: auditLog.outcome, actor: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'message-replies.mark-read')));
    // The audit log alone tells the two refusals apart.
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ outcome: 'success', actor: clinician.id }),
        { outcome: 'denied', actor: otherClinician.id, details: { role: 'clinician', patientId, messageId } },
        { outcome: 'denied', actor: clinician.id, details: { role: 'clinician', patientId: null, messageId: unknownId } },
      ]),
    );
  });

  it('lists a "taken" that answers no message we sent, and records no dose for it', async () => {
    const messageId = await receive(sms('1'));
    expect(await actOnInboundMessage({ database: database.database, messageId, now })).toEqual({
      kind: 'kept',
      reason: 'no-message-answered',
    });
    expect(await listRepliesToRead({ database: database.database, actor: clinician, patientId })).toMatchObject([
      { id: messageId, reason: 'no-message-answered', channel: 'sms' },
    ]);
  });
});
