import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, dispensings, jobs, messages, patients, policyDecisions, products, regimens } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { findTemplate } from '@/engine/messaging';
import { recordConsent } from '@/features/consent';
import { recordWebhookEvents, whatsAppStatusEvent } from '@/features/messaging-webhooks';
import { claimNextJob, enqueueJob, getJob, maximumAttempts, registerJobHandler, runClaimedJob } from '@/lib/server/jobs';
import { type LocalTwilioApi, startLocalTwilioApi } from '../../../../tests/support/local-twilio-api';
import { type LocalWhatsAppCloudApi, startLocalWhatsAppCloudApi } from '../../../../tests/support/local-whatsapp-cloud-api';
import type { ChannelAdapters } from './channel-adapter';
import { type ResolveTemplate, templateLanguageOf } from './compose-message';
import { createMessageSendingJobHandlers } from './register-message-sending-jobs';
import { sendDecisionMessage } from './send-decision-message';
import { sendFallbackSms } from './send-fallback-sms';
import { sendServiceReply } from './send-service-reply';
import { createTwilioSmsAdapter } from './twilio-sms-adapter';
import { createWhatsAppCloudAdapter } from './whatsapp-cloud-adapter';

const statusCallback = 'https://medaptive.example.org/api/webhooks/twilio/status';
const phone = '+447700900123';
const hour = 60 * 60 * 1000;

/** The engine library as version 1 (what the stored library starts from), with Meta's approval as the test needs it. */
const libraryWithApproval =
  (approval: 'approved' | 'pending'): ResolveTemplate =>
  async (options) => {
    const template = findTemplate(options.templateId, templateLanguageOf(options.language));
    if (template === undefined) return null;
    return {
      templateId: template.id,
      language: template.language,
      version: 1,
      body: template.body,
      whatsApp: { ...template.whatsApp, approval },
    };
  };

describe.each(testDatabaseBackends())('send path on $name', (backend) => {
  let database: TestDatabase;
  let whatsApp: LocalWhatsAppCloudApi;
  let twilio: LocalTwilioApi;
  let adapters: ChannelAdapters;
  let patientId: string;
  let now: Date;

  beforeEach(async () => {
    database = await backend.create();
    whatsApp = await startLocalWhatsAppCloudApi();
    twilio = await startLocalTwilioApi();
    adapters = {
      whatsapp: createWhatsAppCloudAdapter({
        apiUrl: whatsApp.url,
        phoneNumberId: whatsApp.phoneNumberId,
        accessToken: whatsApp.accessToken,
      }),
      sms: createTwilioSmsAdapter({
        accountSid: twilio.accountSid,
        authToken: twilio.authToken,
        from: '+15005550006',
        apiUrl: twilio.url,
        statusCallbackUrl: statusCallback,
      }),
    };
    // The job handlers take their own clock: the test's is the real one, to the second.
    now = new Date(Math.floor(Date.now() / 1000) * 1000);
    const db = database.database;
    await db
      .insert(authUsers)
      .values({ id: 'patient-user', name: 'P', email: 'p@example.org', phoneNumber: phone, phoneNumberVerified: true });
    await db.insert(products).values({ id: 'metformin-500', name: 'Metformin 500 mg', genericName: 'metformin' });
    const [patient] = await db
      .insert(patients)
      .values({
        pseudonym: 'P-1',
        source: 'test',
        sourceRecordId: 'p1',
        userId: 'patient-user',
        language: 'en',
        preferredChannel: 'whatsapp',
      })
      .returning({ id: patients.id });
    patientId = patient!.id;
    await db.insert(regimens).values({
      patientId,
      productId: 'metformin-500',
      dosesPerDay: 1,
      doseTimes: ['08:30'],
      startDate: '2020-01-01',
      source: 'test',
      sourceRecordId: 'r1',
    });
    await db.insert(dispensings).values({
      patientId,
      productId: 'metformin-500',
      dispensedOn: new Date(now.getTime() - 10 * 24 * hour).toISOString().slice(0, 10),
      daysSupply: 30,
      source: 'test',
      sourceRecordId: 'd1',
    });
  });
  afterEach(async () => {
    await whatsApp.stop();
    await twilio.stop();
    await database.dispose();
  });

  async function planDecision(overrides: Partial<typeof policyDecisions.$inferInsert> = {}): Promise<string> {
    const [row] = await database.database
      .insert(policyDecisions)
      .values({
        patientId,
        source: 'live',
        localDate: now.toISOString().slice(0, 10),
        decidedAt: now,
        policyName: 'fixed-daily',
        policyVersion: '1',
        context: {},
        action: 'message',
        category: 'reminder',
        framing: 'gain',
        templateId: 'reminder.gain.1',
        minuteOfDay: 480,
        propensity: 1,
        randomSeed: 'seed',
        scheduledFor: now,
        status: 'planned',
        ...overrides,
      })
      .returning({ id: policyDecisions.id });
    return row!.id;
  }

  const consent = (channels: ('whatsapp' | 'sms')[], purposes: ('reminders' | 'education')[] = ['reminders']) =>
    recordConsent({
      database: database.database,
      patientId,
      channels,
      purposes,
      granted: true,
      source: 'clinician',
      actorUserId: null,
      at: new Date(now.getTime() - 60_000),
    });

  const send = (decisionId: string, resolveTemplate: ResolveTemplate = libraryWithApproval('approved')) =>
    sendDecisionMessage({ database: database.database, decisionId, now, adapters, resolveTemplate });

  const decision = async (id: string) =>
    (
      await database.database
        .select({ status: policyDecisions.status, reason: policyDecisions.statusReason })
        .from(policyDecisions)
        .where(eq(policyDecisions.id, id))
    )[0];

  const stored = () =>
    database.database
      .select({
        id: messages.id,
        channel: messages.channel,
        status: messages.status,
        body: messages.body,
        providerMessageId: messages.providerMessageId,
        templateVersion: messages.templateVersion,
        templateLanguage: messages.templateLanguage,
        category: messages.category,
      })
      .from(messages)
      .where(eq(messages.direction, 'outbound'));

  it('sends nothing without consent: the decision is not-sent (no-consent) and no provider was called', async () => {
    // Consent to another purpose does not count.
    await consent(['whatsapp', 'sms'], ['education']);
    const id = await planDecision();
    await expect(send(id)).resolves.toEqual({ outcome: 'not-sent', reason: 'no-consent' });
    expect(await decision(id)).toEqual({ status: 'not-sent', reason: 'no-consent' });
    expect(whatsApp.received).toHaveLength(0);
    expect(twilio.received).toHaveLength(0);
    expect(await stored()).toHaveLength(0);
  });

  it('outside the window with an approved template: the template with the record’s values and decision-bound buttons', async () => {
    await consent(['whatsapp']);
    const id = await planDecision();
    await expect(send(id)).resolves.toMatchObject({ outcome: 'sent', channel: 'whatsapp', form: 'template' });
    const [request] = whatsApp.accepted();
    expect(request!.body).toMatchObject({
      to: '447700900123',
      type: 'template',
      template: {
        name: 'medaptive_reminder_gain_1',
        language: { code: 'en' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', parameter_name: 'medicine', text: 'Metformin 500 mg' },
              { type: 'text', parameter_name: 'dose_time', text: '8:30 am' },
            ],
          },
          { type: 'button', index: '0', parameters: [{ type: 'payload', payload: `dose.taken:${id}` }] },
          { type: 'button', index: '1', parameters: [{ type: 'payload', payload: `dose.not-yet:${id}` }] },
          { type: 'button', index: '2', parameters: [{ type: 'payload', payload: `dose.skip:${id}` }] },
        ],
      },
    });
    const [row] = await stored();
    expect(row).toMatchObject({ channel: 'whatsapp', status: 'sent', templateVersion: 1, templateLanguage: 'en' });
    expect(row!.providerMessageId).toMatch(/^wamid\./);
    expect(row!.body).toBe('Your Metformin 500 mg is due at 8:30 am. Each dose on time helps it work at its best.');
    expect(await decision(id)).toEqual({ status: 'sent', reason: null });
    expect(twilio.received).toHaveLength(0);
  });

  it('inside the 24-hour window: interactive buttons Taken ✓ / Not yet / Skip', async () => {
    await consent(['whatsapp']);
    await database.database.insert(messages).values({
      patientId,
      channel: 'whatsapp',
      direction: 'inbound',
      body: 'hi',
      sentAt: new Date(now.getTime() - 2 * hour),
      status: 'received',
      source: 'whatsapp',
      sourceRecordId: 'wamid.inbound-1',
    });
    const id = await planDecision();
    // Pending approval does not matter inside the window.
    await expect(send(id, libraryWithApproval('pending'))).resolves.toMatchObject({ outcome: 'sent', form: 'interactive-buttons' });
    expect(whatsApp.accepted()[0]!.body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        action: {
          buttons: [
            { type: 'reply', reply: { id: `dose.taken:${id}`, title: 'Taken ✓' } },
            { type: 'reply', reply: { id: `dose.not-yet:${id}`, title: 'Not yet' } },
            { type: 'reply', reply: { id: `dose.skip:${id}`, title: 'Skip' } },
          ],
        },
      },
    });
  });

  it('outside the window without an approved template: SMS when SMS is consented, with the status callback', async () => {
    await consent(['whatsapp', 'sms']);
    const id = await planDecision();
    await expect(send(id, libraryWithApproval('pending'))).resolves.toMatchObject({
      outcome: 'sent',
      channel: 'sms',
      fallbackFrom: 'whatsapp-template-not-approved',
    });
    expect(whatsApp.received).toHaveLength(0);
    const [request] = twilio.accepted();
    expect(request!.form.To).toBe(phone);
    expect(request!.form.StatusCallback).toBe(statusCallback);
    expect(request!.form.Body).toBe(
      'Medaptive: Your Metformin 500 mg is due at 8:30 am. Each dose on time helps it work at its best.\nReply 1 = taken, 2 = not yet, 3 = skip. STOP to opt out.',
    );
    expect(await decision(id)).toEqual({ status: 'sent', reason: 'sms-fallback: whatsapp-template-not-approved' });
    // Without SMS consent the same message is not sent, and the decision says why.
    const other = await planDecision({ localDate: '2020-01-02' });
    await database.database.delete(messages);
    await recordConsent({
      database: database.database,
      patientId,
      channels: ['sms'],
      purposes: ['reminders'],
      granted: false,
      source: 'sms-keyword',
      actorUserId: null,
      at: new Date(now.getTime() - 1000),
    });
    await expect(send(other, libraryWithApproval('pending'))).resolves.toEqual({
      outcome: 'not-sent',
      reason: 'whatsapp-template-not-approved',
    });
    expect(twilio.received).toHaveLength(1);
  });

  it('a WhatsApp refusal for good (131047) falls back to SMS at once', async () => {
    await consent(['whatsapp', 'sms']);
    const id = await planDecision();
    whatsApp.failNext({ httpStatus: 400, code: 131047, message: 'Re-engagement message' });
    await expect(send(id)).resolves.toMatchObject({ outcome: 'sent', channel: 'sms', fallbackFrom: 'whatsapp-131047' });
    const rows = await stored();
    expect(rows.map(({ channel, status }) => ({ channel, status })).sort((a, b) => a.channel.localeCompare(b.channel))).toEqual([
      { channel: 'sms', status: 'sent' },
      { channel: 'whatsapp', status: 'failed' },
    ]);
    expect(twilio.accepted()).toHaveLength(1);
  });

  it('a repeated or interrupted job does not send again; a late job is dropped', async () => {
    await consent(['whatsapp']);
    const id = await planDecision();
    await send(id);
    await expect(send(id)).resolves.toEqual({ outcome: 'skipped', reason: 'already-sent' });
    expect(whatsApp.received).toHaveLength(1);

    // A run that stored its message and stopped before the provider answered: it may have gone, so not again.
    const interrupted = await planDecision({ localDate: '2020-01-03' });
    await database.database.insert(messages).values({
      patientId,
      channel: 'whatsapp',
      direction: 'outbound',
      sentAt: now,
      status: 'sending',
      policyDecisionId: interrupted,
      source: 'live-send',
      sourceRecordId: `decision:${interrupted}:whatsapp`,
    });
    await expect(send(interrupted)).resolves.toEqual({ outcome: 'not-sent', reason: 'interrupted' });
    expect(whatsApp.received).toHaveLength(1);

    const late = await planDecision({ localDate: '2020-01-04', scheduledFor: new Date(now.getTime() - 3 * hour) });
    await expect(send(late)).resolves.toEqual({ outcome: 'not-sent', reason: 'expired' });
    expect(await decision(late)).toEqual({ status: 'not-sent', reason: 'expired' });
  });

  it('Spanish for a Spanish-speaking patient; never a medicine name we do not hold', async () => {
    await consent(['whatsapp']);
    await database.database.update(patients).set({ language: 'es-MX' });
    const id = await planDecision();
    await expect(send(id)).resolves.toMatchObject({ outcome: 'sent', form: 'template' });
    expect(whatsApp.accepted()[0]!.body).toMatchObject({
      template: {
        language: { code: 'es' },
        components: [
          {
            type: 'body',
            parameters: [
              { parameter_name: 'medicine', text: 'Metformin 500 mg' },
              { parameter_name: 'dose_time', text: '08:30' },
            ],
          },
          {},
          {},
          {},
        ],
      },
    });
    expect((await stored())[0]).toMatchObject({
      templateLanguage: 'es',
      body: 'Le toca su Metformin 500 mg a las 08:30. Cada dosis a tiempo ayuda a que funcione mejor.',
    });

    // A regimen known only by a code: the template needs a medicine name, so nothing is sent.
    await database.database.update(regimens).set({ productId: null, medicationCode: '860975' });
    const other = await planDecision({ localDate: '2020-01-05' });
    await expect(send(other)).resolves.toEqual({ outcome: 'not-sent', reason: 'template-values-missing' });
    expect(whatsApp.received).toHaveLength(1);
  });

  it('no answer from WhatsApp: neither sent again nor by SMS, and the decision says so', async () => {
    await consent(['whatsapp', 'sms']);
    adapters.whatsapp = createWhatsAppCloudAdapter({
      apiUrl: whatsApp.url,
      phoneNumberId: whatsApp.phoneNumberId,
      accessToken: whatsApp.accessToken,
      timeoutMs: 300,
    });
    const id = await planDecision();
    whatsApp.hangNext();
    await expect(send(id)).resolves.toEqual({ outcome: 'not-sent', reason: 'whatsapp-no-answer-uncertain' });
    expect((await stored())[0]).toMatchObject({ channel: 'whatsapp', status: 'sending' });
    await expect(send(id)).resolves.toEqual({ outcome: 'not-sent', reason: 'interrupted' });
    expect(whatsApp.received).toHaveLength(1);
    expect(twilio.received).toHaveLength(0);
  });

  it('without a verified number nothing is sent (no-number)', async () => {
    await consent(['whatsapp', 'sms']);
    await database.database.update(authUsers).set({ phoneNumberVerified: false });
    const id = await planDecision();
    await expect(send(id)).resolves.toEqual({ outcome: 'not-sent', reason: 'no-number' });
    expect(whatsApp.received.length + twilio.received.length).toBe(0);
  });

  describe('through the job queue', () => {
    const kind = `test-message-send-${backend.name}`;
    const replyKind = `test-service-reply-${backend.name}`;
    beforeEach(() => {
      const handlers = createMessageSendingJobHandlers({
        database: () => database.database,
        adapters: () => adapters,
        resolveTemplate: libraryWithApproval('approved'),
        senderLabel: () => 'Medaptive',
      });
      registerJobHandler(kind, handlers.send, { queue: 'messages' });
      registerJobHandler(replyKind, handlers.serviceReply, { queue: 'messages' });
    });

    async function run(jobKind: string, at: Date) {
      const job = await claimNextJob({ database: database.database, kinds: [jobKind], now: at });
      expect(job).not.toBeNull();
      await runClaimedJob({ database: database.database, job: job!, clock: () => at });
      return getJob({ database: database.database, id: job!.id });
    }

    it('a provider 500 puts the job back (nothing stored), the retry sends once', async () => {
      await consent(['whatsapp']);
      const id = await planDecision();
      await enqueueJob({ database: database.database, kind, payload: { decisionId: id }, dedupeKey: `message-send:${id}`, runAt: now });
      whatsApp.failNext({ httpStatus: 500, code: 131000 });
      const first = await run(kind, now);
      expect(first).toMatchObject({ status: 'queued', attempts: 1 });
      expect(first!.error).toContain('code 131000');
      expect(await stored()).toHaveLength(0);
      expect(await decision(id)).toEqual({ status: 'planned', reason: null });

      const second = await run(kind, new Date(now.getTime() + 60_000));
      expect(second).toMatchObject({ status: 'succeeded', result: { outcome: 'sent', channel: 'whatsapp' } });
      expect(whatsApp.accepted()).toHaveLength(1);
      expect(await decision(id)).toEqual({ status: 'sent', reason: null });
    });

    it('after the last attempt the decision says the queue gave up', async () => {
      await consent(['whatsapp']);
      const id = await planDecision();
      await enqueueJob({ database: database.database, kind, payload: { decisionId: id }, runAt: now });
      whatsApp.failNext({ httpStatus: 503, code: 131016, times: maximumAttempts });
      let job = null;
      for (let attempt = 1; attempt <= maximumAttempts; attempt += 1) {
        job = await run(kind, new Date(now.getTime() + attempt * 20 * 60_000));
        expect(job?.attempts).toBe(attempt);
      }
      expect(job?.status).toBe('failed');
      expect(await decision(id)).toEqual({ status: 'not-sent', reason: 'whatsapp-131016-gave-up' });
      expect(whatsApp.accepted()).toHaveLength(0);
    });

    it('a provider 400 is final: not retried, the message failed and the decision not-sent with the code', async () => {
      await consent(['whatsapp']);
      const id = await planDecision();
      await enqueueJob({ database: database.database, kind, payload: { decisionId: id }, runAt: now });
      whatsApp.failNext({ httpStatus: 400, code: 131026 });
      const job = await run(kind, now);
      expect(job).toMatchObject({ status: 'succeeded', attempts: 1, result: { outcome: 'not-sent', reason: 'whatsapp-131026' } });
      expect(await decision(id)).toEqual({ status: 'not-sent', reason: 'whatsapp-131026' });
      expect((await stored())[0]).toMatchObject({ channel: 'whatsapp', status: 'failed' });
    });

    it('service reply: sent without messaging consent, once; a refusal for good fails the job at once', async () => {
      const payload = { patientId, channel: 'sms', body: 'Medaptive medicine reminders. Reply STOP to stop.', kind: 'help' };
      await enqueueJob({ database: database.database, kind: replyKind, payload, runAt: now });
      const job = await run(replyKind, now);
      expect(job).toMatchObject({ status: 'succeeded', result: { outcome: 'sent', channel: 'sms', form: 'sms' } });
      expect(twilio.accepted()[0]!.form).toMatchObject({ To: phone, Body: payload.body, StatusCallback: statusCallback });
      expect(await stored()).toEqual([expect.objectContaining({ channel: 'sms', status: 'sent', category: 'service' })]);
      // The same job again (a retry after a crash) finds its message.
      await expect(
        sendServiceReply({
          ...(payload as { patientId: string; channel: 'sms'; body: string; kind: 'help' }),
          database: database.database,
          now,
          adapters,
          idempotencyKey: job!.id,
        }),
      ).resolves.toEqual({ outcome: 'skipped', reason: 'already-sent' });
      expect(twilio.received).toHaveLength(1);

      twilio.failNext({ httpStatus: 400, code: 21610 });
      await enqueueJob({ database: database.database, kind: replyKind, payload: { ...payload, kind: 'stop-confirmation' }, runAt: now });
      const refused = await run(replyKind, now);
      expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
      expect(refused!.error).toContain('code 21610');
      expect(refused!.error).not.toContain(phone);

      // On WhatsApp only inside the window.
      await expect(
        sendServiceReply({
          patientId,
          channel: 'whatsapp',
          body: 'Help text',
          kind: 'help',
          database: database.database,
          now,
          adapters,
          idempotencyKey: 'k-wa',
        }),
      ).resolves.toEqual({ outcome: 'not-sent', reason: 'whatsapp-window-closed' });
      expect(whatsApp.received).toHaveLength(0);
    });
  });

  it('a WhatsApp message reported failed goes once by SMS when SMS is consented', async () => {
    await consent(['whatsapp', 'sms']);
    const id = await planDecision();
    const sent = await send(id);
    expect(sent).toMatchObject({ outcome: 'sent', channel: 'whatsapp' });
    const messageId = (sent as { messageId: string }).messageId;
    // What the status webhook does on a 'failed' status.
    await database.database.update(messages).set({ status: 'failed' }).where(eq(messages.id, messageId));
    const fallback = () =>
      sendFallbackSms({ database: database.database, messageId, now, adapters, resolveTemplate: libraryWithApproval('approved') });
    await expect(fallback()).resolves.toMatchObject({ outcome: 'sent', channel: 'sms', fallbackFrom: 'whatsapp-failed' });
    await expect(fallback()).resolves.toEqual({ outcome: 'skipped', reason: 'sms-already-sent' });
    expect(twilio.accepted()).toHaveLength(1);
    expect(twilio.accepted()[0]!.form.Body).toContain('Metformin 500 mg');
    expect(await decision(id)).toEqual({ status: 'sent', reason: 'sms-fallback: whatsapp-failed' });
  });

  it('a failure WhatsApp reports before the send has stored the message id is applied, and the SMS fallback is queued', async () => {
    await consent(['whatsapp', 'sms']);
    const id = await planDecision();
    // WhatsApp accepts the message and posts "failed" at once: the webhook is recorded before the send stores the id.
    const whatsApp = adapters.whatsapp;
    adapters = {
      ...adapters,
      whatsapp: {
        ...whatsApp,
        send: async (message) => {
          const acceptance = await whatsApp.send(message);
          const failed = whatsAppStatusEvent({
            id: acceptance.providerMessageId,
            status: 'failed',
            timestamp: String(Math.floor(now.getTime() / 1000) + 1),
            errors: [{ code: 131026, title: 'Message undeliverable' }],
          })!;
          expect(await recordWebhookEvents({ database: database.database, events: [failed] })).toMatchObject({ unmatched: 1 });
          return acceptance;
        },
      },
    };
    const sent = (await send(id)) as { outcome: string; messageId: string };
    expect(sent.outcome).toBe('sent');
    const [message] = await database.database
      .select({ status: messages.status, history: messages.statusHistory })
      .from(messages)
      .where(eq(messages.id, sent.messageId));
    expect(message!.status).toBe('failed');
    expect(message!.history.map((entry) => entry.status)).toEqual(['sent', 'failed']);
    expect(await database.database.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, 'outbound-message-failed'))).toEqual([
      { payload: { messageId: sent.messageId } },
    ]);
  });

  it('no SMS fallback without SMS consent', async () => {
    await consent(['whatsapp']);
    const id = await planDecision();
    const sent = (await send(id)) as { messageId: string };
    await database.database.update(messages).set({ status: 'failed' }).where(eq(messages.id, sent.messageId));
    await expect(
      sendFallbackSms({
        database: database.database,
        messageId: sent.messageId,
        now,
        adapters,
        resolveTemplate: libraryWithApproval('approved'),
      }),
    ).resolves.toEqual({ outcome: 'not-sent', reason: 'no-sms-consent' });
    expect(twilio.received).toHaveLength(0);
    expect(await decision(id)).toEqual({ status: 'sent', reason: 'whatsapp-failed; no-sms-consent' });
  });
});
