/**
 * Conformance of POST /api/webhooks/twilio/sms and /api/webhooks/twilio/status with the Twilio fixtures in
 * ../shared/testdata: each inbound SMS fixture, signed as Twilio signs it (the public URL, not the address the
 * server sees), is recorded once with TwiML's empty answer; forged or unsigned → 403 and audited; status
 * callbacks land in the message's history once per MessageSid + status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, authUsers, messages, patients, webhookEvents } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { POST as postSms } from './sms/route';
import { POST as postStatus } from './status/route';

const directory = path.resolve(process.cwd(), '../shared/testdata/twilio');
const authToken = 'twilio-auth-token-for-tests';
const publicUrl = 'https://medaptive.example.org';
process.env.TWILIO_ACCOUNT_SID = 'ACtest';
process.env.TWILIO_AUTH_TOKEN = authToken;
process.env.TWILIO_FROM = '+15558675310';
process.env.PUBLIC_URL = publicUrl;

const patientPhone = '+15017122661';

/** Every inbound-SMS fixture as its form parameters (a .json holds { headers, body }, a .txt the form body). */
function inboundFixtures(): [string, Record<string, string>][] {
  return fs
    .readdirSync(directory)
    .filter((file) => file.startsWith('inbound_'))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(directory, file), 'utf8');
      const params = file.endsWith('.json')
        ? (JSON.parse(text) as { body: Record<string, string> }).body
        : Object.fromEntries(new URLSearchParams(text.trim()));
      return [file, params];
    });
}

let requestCounter = 0;
/** A request as the server sees it (behind a proxy, on localhost), signed for the public URL Twilio calls. */
function twilioRequest(pathAndQuery: string, params: Record<string, string>, headers: Record<string, string | null> = {}): Request {
  const allHeaders: Record<string, string | null> = {
    'content-type': 'application/x-www-form-urlencoded',
    'x-twilio-signature': getExpectedTwilioSignature(authToken, `${publicUrl}${pathAndQuery}`, params),
    'x-request-id': `req-tw-${(requestCounter += 1)}`,
    ...headers,
  };
  return new Request(`http://localhost:3000${pathAndQuery}`, {
    method: 'POST',
    body: new URLSearchParams(params).toString(),
    headers: Object.fromEntries(Object.entries(allHeaders).filter((entry): entry is [string, string] => entry[1] !== null)),
  });
}

describe.each(testDatabaseBackends())('/api/webhooks/twilio on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  let patientId: string;

  beforeAll(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
    await database.database
      .insert(authUsers)
      .values({ id: 'user-tw', name: 'Patient', email: 'tw@medaptive.test', phoneNumber: patientPhone, phoneNumberVerified: true });
    [{ id: patientId }] = (await database.database
      .insert(patients)
      .values({ pseudonym: 'P-TW', source: 'test', sourceRecordId: 'tw', userId: 'user-tw' })
      .returning({ id: patients.id })) as [{ id: string }];
  });
  afterAll(async () => {
    server.restore();
    await database.dispose();
  });
  beforeEach(async () => {
    await database.database.delete(webhookEvents);
    await database.database.delete(messages);
  });

  const snapshot = async () => ({
    messages: await database.database
      .select({ id: messages.id, status: messages.status, statusHistory: messages.statusHistory, body: messages.body })
      .from(messages)
      .orderBy(asc(messages.id)),
    events: await database.database
      .select({ eventKey: webhookEvents.eventKey, outcome: webhookEvents.outcome, messageId: webhookEvents.messageId })
      .from(webhookEvents)
      .orderBy(asc(webhookEvents.eventKey)),
  });

  it('finds the inbound fixtures', () => {
    expect(inboundFixtures().map(([file]) => file)).toEqual([
      'inbound_sms_event_plugin-webhook.json',
      'inbound_sms_plugin-webhook.form-urlencoded.txt',
    ]);
  });

  it.each(inboundFixtures())('records %s as an inbound SMS, exactly once, answering empty TwiML', async (_file, params) => {
    const first = await postSms(twilioRequest('/api/webhooks/twilio/sms', params));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(await first.text()).toMatch(/<Response\/>$/);
    const [message] = await database.database
      .select({
        id: messages.id,
        patientId: messages.patientId,
        channel: messages.channel,
        direction: messages.direction,
        body: messages.body,
        providerMessageId: messages.providerMessageId,
        reading: messages.inboundReading,
      })
      .from(messages);
    expect(message).toMatchObject({
      patientId,
      channel: 'sms',
      direction: 'inbound',
      body: 'Ahoy',
      providerMessageId: params.MessageSid,
      reading: { content: { kind: 'text', text: 'Ahoy' }, interpretation: { kind: 'reply', reply: { intent: 'unrecognised' } } },
    });
    const after = await snapshot();
    expect(after.events).toEqual([{ eventKey: `twilio:message:${params.MessageSid}`, outcome: 'recorded', messageId: message!.id }]);

    const second = await postSms(twilioRequest('/api/webhooks/twilio/sms', params));
    expect(second.status).toBe(200);
    expect(await snapshot()).toEqual(after);
  });

  it('refuses the fixture as captured (empty X-Twilio-Signature), a forged one and one signed for another URL with 403, audited', async () => {
    const [[, params]] = inboundFixtures() as [[string, Record<string, string>]];
    const cases = [
      ['req-tw-empty', { 'x-twilio-signature': '' }, 'unsigned'],
      ['req-tw-missing', { 'x-twilio-signature': null }, 'unsigned'],
      [
        'req-tw-forged',
        {
          'x-twilio-signature': getExpectedTwilioSignature(authToken, `${publicUrl}/api/webhooks/twilio/sms`, { ...params, Body: 'STOP' }),
        },
        'wrong-signature',
      ],
      // Signed for the address the server sees: Twilio signs the public URL, so this is not Twilio.
      [
        'req-tw-local',
        { 'x-twilio-signature': getExpectedTwilioSignature(authToken, 'http://localhost:3000/api/webhooks/twilio/sms', params) },
        'wrong-signature',
      ],
    ] as const;
    for (const [requestId, headers, reason] of cases) {
      const response = await postSms(twilioRequest('/api/webhooks/twilio/sms', params, { ...headers, 'x-request-id': requestId }));
      expect([requestId, response.status]).toEqual([requestId, 403]);
      const rows = await database.database
        .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.requestId, requestId));
      expect(rows).toEqual([
        {
          action: 'webhook.signature-refused',
          outcome: 'denied',
          details: { provider: 'twilio', path: '/api/webhooks/twilio/sms', reason },
        },
      ]);
    }
    expect(await snapshot()).toEqual({ messages: [], events: [] });
  });

  it('keeps a message from an unknown number without a patient, and records media-only as media received', async () => {
    const unknown = await postSms(
      twilioRequest('/api/webhooks/twilio/sms', { MessageSid: 'SMunknown', From: '+15550000000', Body: 'STOP', NumMedia: '0' }),
    );
    expect(unknown.status).toBe(200);
    const events = await database.database
      .select({
        outcome: webhookEvents.outcome,
        patientId: webhookEvents.patientId,
        sender: webhookEvents.sender,
        details: webhookEvents.details,
      })
      .from(webhookEvents);
    expect(events).toEqual([
      {
        outcome: 'unknown-sender',
        patientId: null,
        sender: '15550000000',
        details: { content: 'text', interpretation: { kind: 'keyword', keyword: { action: 'opt-out', keyword: 'STOP', language: 'en' } } },
      },
    ]);
    const media = await postSms(
      twilioRequest('/api/webhooks/twilio/sms', {
        MessageSid: 'MMmedia',
        From: patientPhone,
        Body: '',
        NumMedia: '1',
        MediaUrl0: 'https://api.twilio.com/x',
      }),
    );
    expect(media.status).toBe(200);
    const [message] = await database.database.select({ body: messages.body, reading: messages.inboundReading }).from(messages);
    expect(message).toEqual({ body: 'media received', reading: { content: { kind: 'media', mediaType: 'mms' }, interpretation: null } });
  });

  it('records each status callback once (MessageSid + status), with the error code of a failure', async () => {
    const [outbound] = await database.database
      .insert(messages)
      .values({
        patientId,
        channel: 'sms',
        direction: 'outbound',
        body: 'Time for your dose',
        sentAt: new Date(),
        status: 'queued',
        providerMessageId: 'SMout',
        source: 'test',
        sourceRecordId: 'SMout',
      })
      .returning({ id: messages.id });
    const callback = (status: string, extra: Record<string, string> = {}) =>
      postStatus(
        twilioRequest('/api/webhooks/twilio/status', {
          AccountSid: 'ACtest',
          MessageSid: 'SMout',
          MessageStatus: status,
          To: patientPhone,
          From: '+15558675310',
          ApiVersion: '2010-04-01',
          ...extra,
        }),
      );
    for (const status of ['sent', 'sent', 'undelivered']) {
      const response = await callback(status, status === 'undelivered' ? { ErrorCode: '30003' } : {});
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/<Response\/>$/);
    }
    const [message] = await database.database
      .select({ status: messages.status, statusHistory: messages.statusHistory })
      .from(messages)
      .where(eq(messages.id, outbound!.id));
    expect(message!.status).toBe('undelivered');
    expect(message!.statusHistory.map(({ status, errors }) => ({ status, errors }))).toEqual([
      { status: 'sent', errors: undefined },
      { status: 'undelivered', errors: [{ code: '30003' }] },
    ]);
    expect((await callback('sent', { Extra: 'x' })).status).toBe(200);
    expect((await snapshot()).events.map((event) => event.eventKey)).toEqual([
      'twilio:status:SMout:sent',
      'twilio:status:SMout:undelivered',
    ]);
    // Unsigned status callbacks are refused like inbound ones.
    const forged = await postStatus(
      twilioRequest('/api/webhooks/twilio/status', { MessageSid: 'SMout', MessageStatus: 'delivered' }, { 'x-twilio-signature': 'AAAA' }),
    );
    expect(forged.status).toBe(403);
  });

  it('bounds the body (413 past 256 KB, 415 if not a form) and names a missing field (400)', async () => {
    const padding = 'x'.repeat(256 * 1024);
    expect(
      (await postSms(twilioRequest('/api/webhooks/twilio/sms', { MessageSid: 'SMbig', From: patientPhone, Body: padding }))).status,
    ).toBe(413);
    expect(
      (await postSms(twilioRequest('/api/webhooks/twilio/sms', { MessageSid: 'SMjson' }, { 'content-type': 'application/json' }))).status,
    ).toBe(415);
    const missing = await postStatus(twilioRequest('/api/webhooks/twilio/status', { MessageSid: 'SMout' }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { fieldErrors: Record<string, string> } }).error.fieldErrors).toHaveProperty(
      'MessageStatus',
    );
  });
});

describe('/api/webhooks/twilio without configuration', () => {
  it('refuses with 503 when PUBLIC_URL (or TWILIO_AUTH_TOKEN) is unset', async () => {
    const saved = process.env.PUBLIC_URL;
    delete process.env.PUBLIC_URL;
    try {
      vi.resetModules();
      const sms = await import('./sms/route');
      const status = await import('./status/route');
      expect(
        (await sms.POST(twilioRequest('/api/webhooks/twilio/sms', { MessageSid: 'SM1', From: patientPhone, Body: 'hi' }))).status,
      ).toBe(503);
      expect((await status.POST(twilioRequest('/api/webhooks/twilio/status', { MessageSid: 'SM1', MessageStatus: 'sent' }))).status).toBe(
        503,
      );
    } finally {
      process.env.PUBLIC_URL = saved;
    }
  });
});
