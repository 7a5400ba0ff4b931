/**
 * The follow-up jobs recorded with webhook events: one 'inbound-message-received' per inbound message of a
 * known patient, one 'outbound-message-failed' per message that fails (however many failure statuses and
 * retries arrive), none for a retried delivery.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, jobs, messages, patients, webhookEvents } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { twilioInboundEvent, twilioStatusEvent, whatsAppStatusEvent } from '../webhook-events';
import { adoptEarlyStatuses, recordWebhookEvents } from './record-webhook-events';

const at = new Date('2026-11-24T08:00:00Z');
const phone = '+34600111333';

describe.each(testDatabaseBackends())('recordWebhookEvents follow-up jobs on $name', (backend) => {
  let database: TestDatabase;
  let patientId: string;

  beforeAll(async () => {
    database = await backend.create();
    await database.database
      .insert(authUsers)
      .values({ id: 'user-rw', name: 'Patient', email: 'rw@medaptive.test', phoneNumber: phone, phoneNumberVerified: true });
    [{ id: patientId }] = (await database.database
      .insert(patients)
      .values({ pseudonym: 'P-RW', source: 'test', sourceRecordId: 'rw', userId: 'user-rw' })
      .returning({ id: patients.id })) as [{ id: string }];
  });
  afterAll(async () => {
    await database.dispose();
  });
  beforeEach(async () => {
    await database.database.delete(jobs);
    await database.database.delete(webhookEvents);
    await database.database.delete(messages);
  });

  const jobsOf = (kind: string) =>
    database.database.select({ payload: jobs.payload, dedupeKey: jobs.dedupeKey }).from(jobs).where(eq(jobs.kind, kind));

  /** An outbound message as the send stores it: sent with the provider's id, or (null) only claimed, before the answer. */
  async function outbound(providerMessageId: string | null, channel: 'whatsapp' | 'sms', sourceRecordId = providerMessageId!) {
    const [row] = await database.database
      .insert(messages)
      .values({
        patientId,
        channel,
        direction: 'outbound',
        body: 'Time for your dose',
        sentAt: at,
        status: providerMessageId === null ? 'sending' : 'sent',
        providerMessageId,
        source: 'live',
        sourceRecordId,
      })
      .returning({ id: messages.id });
    return row!.id;
  }

  it('enqueues one outbound-message-failed job when a message fails, not again for undelivered or a retry', async () => {
    const messageId = await outbound('SMfail1', 'sms');
    const failed = twilioStatusEvent({ messageSid: 'SMfail1', status: 'failed', errorCode: '30003', to: phone, at });
    await recordWebhookEvents({ database: database.database, events: [failed] });
    await recordWebhookEvents({ database: database.database, events: [failed] });
    const undelivered = twilioStatusEvent({ messageSid: 'SMfail1', status: 'undelivered', errorCode: '30003', to: phone, at });
    await recordWebhookEvents({ database: database.database, events: [undelivered] });
    expect(await jobsOf('outbound-message-failed')).toEqual([
      { payload: { messageId }, dedupeKey: `outbound-message-failed:${messageId}` },
    ]);
  });

  it('enqueues nothing for a delivered message, and a retried status does not change the message again', async () => {
    await outbound('wamid.ok', 'whatsapp');
    const delivered = whatsAppStatusEvent({ id: 'wamid.ok', status: 'delivered', timestamp: '1700000000' })!;
    expect((await recordWebhookEvents({ database: database.database, events: [delivered] })).recorded).toBe(1);
    expect((await recordWebhookEvents({ database: database.database, events: [delivered] })).duplicates).toBe(1);
    const [row] = await database.database.select({ history: messages.statusHistory }).from(messages);
    expect(row!.history).toHaveLength(1);
    expect(await jobsOf('outbound-message-failed')).toEqual([]);
  });

  it('applies a failure that arrived before its message held the provider id once the send stores it, with one fallback job', async () => {
    const db = database.database;
    // The send claimed its row ('sending', no provider id yet); the provider answered and posted "failed" at once.
    const claimed = { id: await outbound(null, 'sms', 'early-1') };
    const failed = twilioStatusEvent({
      messageSid: 'SMearly',
      status: 'failed',
      errorCode: '30003',
      to: phone,
      at: new Date(at.getTime() + 2000),
    });
    expect(await recordWebhookEvents({ database: db, events: [failed] })).toMatchObject({ unmatched: 1 });
    expect(await db.select({ outcome: webhookEvents.outcome }).from(webhookEvents)).toEqual([{ outcome: 'unknown-message' }]);
    expect(await jobsOf('outbound-message-failed')).toEqual([]);

    // The send's own update commits (status 'sent', the provider id), then it looks for statuses that came first.
    await db
      .update(messages)
      .set({
        status: 'sent',
        providerMessageId: 'SMearly',
        statusHistory: [{ status: 'sent', at: new Date(at.getTime() + 1000).toISOString() }],
      })
      .where(eq(messages.id, claimed!.id));
    expect(await adoptEarlyStatuses({ database: db, channel: 'sms', providerMessageId: 'SMearly' })).toBe(1);
    const [message] = await db.select({ status: messages.status, history: messages.statusHistory }).from(messages);
    expect(message!.status).toBe('failed');
    expect(message!.history.map((entry) => entry.status)).toEqual(['sent', 'failed']);
    expect(await db.select({ outcome: webhookEvents.outcome, messageId: webhookEvents.messageId }).from(webhookEvents)).toEqual([
      { outcome: 'recorded', messageId: claimed!.id },
    ]);
    expect(await jobsOf('outbound-message-failed')).toEqual([
      { payload: { messageId: claimed!.id }, dedupeKey: `outbound-message-failed:${claimed!.id}` },
    ]);
    // Looking again (the webhook's own second look, or a retried send) adopts nothing twice.
    expect(await adoptEarlyStatuses({ database: db, channel: 'sms', providerMessageId: 'SMearly' })).toBe(0);
    expect(await jobsOf('outbound-message-failed')).toHaveLength(1);
    // A status of a message nobody holds stays where it was.
    await recordWebhookEvents({
      database: db,
      events: [twilioStatusEvent({ messageSid: 'SMnobody', status: 'delivered', errorCode: undefined, to: phone, at })],
    });
    expect(await adoptEarlyStatuses({ database: db, channel: 'sms', providerMessageId: 'SMnobody' })).toBe(0);
  });

  it('enqueues inbound-message-received for a known patient once, and nothing for an unknown number', async () => {
    const reply = twilioInboundEvent({ messageSid: 'SMin1', from: phone, body: '1', numMedia: 0, at });
    const first = await recordWebhookEvents({ database: database.database, events: [reply] });
    await recordWebhookEvents({ database: database.database, events: [reply] });
    const stranger = twilioInboundEvent({ messageSid: 'SMin2', from: '+15550000000', body: '1', numMedia: 0, at });
    await recordWebhookEvents({ database: database.database, events: [stranger] });
    const messageId = first.inbound[0]!.messageId;
    expect(await jobsOf('inbound-message-received')).toEqual([
      { payload: { messageId }, dedupeKey: `inbound-message-received:${messageId}` },
    ]);
  });
});
