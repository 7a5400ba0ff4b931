/**
 * Conformance of POST/GET /api/webhooks/whatsapp with the WhatsApp Cloud API fixtures in ../shared/testdata:
 * every file is posted, signed as Meta signs it, and must have its effect exactly once (a second delivery
 * changes nothing). Also: the subscription handshake, forged and unsigned deliveries (401, audited), 413,
 * events we do not act on (200, ignored), and 503 without configuration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, authUsers, messages, patients, webhookEvents } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { whatsAppSignatureOf } from '@/lib/server/webhook-signatures';
import { GET, POST } from './route';

const directory = path.resolve(process.cwd(), '../shared/testdata/whatsapp-cloud-api');
const vector = JSON.parse(fs.readFileSync(path.join(directory, 'signature_vector_pywa.json'), 'utf8')) as {
  app_secret: string;
  raw_body_file: string;
  x_hub_signature_256: string;
};
// The real delivery's secret signs every request here, so its captured signature is accepted as is.
const appSecret = vector.app_secret;
const verifyToken = 'verify-token-for-tests';
process.env.WHATSAPP_APP_SECRET = appSecret;
process.env.WHATSAPP_VERIFY_TOKEN = verifyToken;

const patientPhone = '+972987654321';
const outboundWamid = 'wamid.xyzxyz';

let requestCounter = 0;
function webhookRequest(body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string | null> = {}): Request {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const allHeaders: Record<string, string | null> = {
    'content-type': 'application/json',
    'x-hub-signature-256': whatsAppSignatureOf(bytes, appSecret),
    'x-request-id': `req-wa-${(requestCounter += 1)}`,
    ...headers,
  };
  return new Request('http://localhost:3000/api/webhooks/whatsapp', {
    method: 'POST',
    body: bytes,
    headers: Object.fromEntries(Object.entries(allHeaders).filter((entry): entry is [string, string] => entry[1] !== null)),
  });
}

function envelope(value: Record<string, unknown>, field = 'messages'): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '1', changes: [{ field, value: { messaging_product: 'whatsapp', ...value } }] }],
  });
}

type Effect =
  | { kind: 'status'; status: string; errors?: { code: string; title?: string }[] }
  | { kind: 'inbound'; body: string; content: string; replyTo: string | null; interpretation: unknown }
  | { kind: 'unknown-sender'; sender: string };

const unrecognised = { kind: 'reply', reply: { intent: 'unrecognised' } };
/** Every fixture file and what it must do; a fixture missing here fails the test. */
const expectedEffects: Record<string, Effect> = {
  'split/inbound_image.json': { kind: 'inbound', body: 'media received', content: 'media', replyTo: null, interpretation: null },
  'split/inbound_interactive_button_reply.json': {
    kind: 'inbound',
    body: 'title',
    content: 'button',
    replyTo: 'wamid.xyzxyz',
    interpretation: unrecognised,
  },
  'split/inbound_interactive_list_reply.json': {
    kind: 'inbound',
    body: 'title',
    content: 'button',
    replyTo: 'wamid.xyzxyz',
    interpretation: unrecognised,
  },
  'split/inbound_reaction.json': {
    kind: 'inbound',
    body: '😮',
    content: 'reaction',
    replyTo: 'wamid.yzxyzx=',
    interpretation: unrecognised,
  },
  'split/inbound_template_quick_reply_button.json': {
    kind: 'inbound',
    body: 'title',
    content: 'button',
    replyTo: 'wamid.xyzxyz==',
    interpretation: unrecognised,
  },
  'split/inbound_text.json': { kind: 'inbound', body: 'Body Text', content: 'text', replyTo: null, interpretation: unrecognised },
  'split/inbound_text_reply_with_context.json': {
    kind: 'inbound',
    body: 'replied text',
    content: 'text',
    replyTo: 'wamid.xyzxyz==',
    interpretation: unrecognised,
  },
  'split/status_sent.json': { kind: 'status', status: 'sent' },
  'split/status_delivered.json': { kind: 'status', status: 'delivered' },
  'split/status_read.json': { kind: 'status', status: 'read' },
  'split/status_failed.json': {
    kind: 'status',
    status: 'failed',
    errors: [{ code: '130472', title: "User's number is part of an experiment" }],
  },
  // The real captured delivery: from a number no patient has.
  'signed_inbound_text.body.json': { kind: 'unknown-sender', sender: '972544401243' },
};

function fixtureFiles(): string[] {
  const split = fs.readdirSync(path.join(directory, 'split')).map((file) => `split/${file}`);
  const top = fs.readdirSync(directory).filter((file) => file.endsWith('.json') && !file.startsWith('signature_vector'));
  return [...split, ...top].sort();
}

describe.each(testDatabaseBackends())('/api/webhooks/whatsapp on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  let patientId: string;

  beforeAll(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
    await database.database
      .insert(authUsers)
      .values({ id: 'user-wa', name: 'Patient', email: 'wa@medaptive.test', phoneNumber: patientPhone, phoneNumberVerified: true });
    [{ id: patientId }] = (await database.database
      .insert(patients)
      .values({ pseudonym: 'P-WA', source: 'test', sourceRecordId: 'wa', userId: 'user-wa' })
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

  async function seedOutbound(wamid = outboundWamid): Promise<string> {
    const [row] = await database.database
      .insert(messages)
      .values({
        patientId,
        channel: 'whatsapp',
        direction: 'outbound',
        body: 'Time for your dose',
        sentAt: new Date('2023-07-01T00:00:00Z'),
        status: 'accepted',
        providerMessageId: wamid,
        source: 'test',
        sourceRecordId: wamid,
      })
      .returning({ id: messages.id });
    return row!.id;
  }

  const snapshot = async () => ({
    messages: await database.database
      .select({
        id: messages.id,
        direction: messages.direction,
        status: messages.status,
        statusHistory: messages.statusHistory,
        body: messages.body,
        inboundReading: messages.inboundReading,
      })
      .from(messages)
      .orderBy(asc(messages.id)),
    events: await database.database
      .select({ eventKey: webhookEvents.eventKey, outcome: webhookEvents.outcome, messageId: webhookEvents.messageId })
      .from(webhookEvents)
      .orderBy(asc(webhookEvents.eventKey)),
  });

  it('answers the subscription handshake only for our verify token', async () => {
    const handshake = (query: string) => GET(new Request(`http://localhost:3000/api/webhooks/whatsapp?${query}`));
    const ok = await handshake(`hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe('1158201444');
    expect((await handshake('hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1')).status).toBe(403);
    expect((await handshake(`hub.mode=unsubscribe&hub.verify_token=${verifyToken}&hub.challenge=1`)).status).toBe(403);
    expect((await handshake('hub.mode=subscribe&hub.challenge=1')).status).toBe(403);
    expect((await handshake('')).status).toBe(403);
  });

  it('has an expected effect for every fixture file, and no more', () => {
    expect(fixtureFiles()).toEqual(Object.keys(expectedEffects).sort());
  });

  it.each(fixtureFiles())('records %s with its effect, exactly once', async (file) => {
    const expected = expectedEffects[file]!;
    const raw = fs.readFileSync(path.join(directory, file));
    const outboundId = expected.kind === 'status' ? await seedOutbound() : null;
    const first = await POST(webhookRequest(new Uint8Array(raw)));
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      recorded: expected.kind === 'unknown-sender' ? 0 : 1,
      duplicates: 0,
      unmatched: expected.kind === 'unknown-sender' ? 1 : 0,
      ignored: 0,
    });
    const after = await snapshot();

    if (expected.kind === 'status') {
      const [message] = after.messages;
      expect(message).toMatchObject({ id: outboundId, status: expected.status });
      expect(message!.statusHistory).toHaveLength(1);
      expect(message!.statusHistory[0]).toEqual({
        status: expected.status,
        at: expect.stringMatching(/^20\d\d-/),
        ...(expected.errors === undefined ? {} : { errors: expected.errors }),
      });
      expect(after.events).toEqual([
        { eventKey: `whatsapp:status:${outboundWamid}:${expected.status}`, outcome: 'recorded', messageId: outboundId },
      ]);
    } else if (expected.kind === 'inbound') {
      expect(after.messages).toHaveLength(1);
      const [message] = await database.database
        .select({
          patientId: messages.patientId,
          channel: messages.channel,
          direction: messages.direction,
          body: messages.body,
          status: messages.status,
          replyTo: messages.replyToProviderMessageId,
          reading: messages.inboundReading,
        })
        .from(messages);
      expect(message).toMatchObject({
        patientId,
        channel: 'whatsapp',
        direction: 'inbound',
        body: expected.body,
        status: 'received',
        replyTo: expected.replyTo,
      });
      expect(message!.reading?.content.kind).toBe(expected.content);
      expect(message!.reading?.interpretation).toEqual(expected.interpretation);
      expect(after.events).toEqual([
        { eventKey: expect.stringMatching(/^whatsapp:message:wamid\./), outcome: 'recorded', messageId: after.messages[0]!.id },
      ]);
    } else {
      expect(after.messages).toEqual([]);
      const events = await database.database
        .select({ outcome: webhookEvents.outcome, patientId: webhookEvents.patientId, sender: webhookEvents.sender })
        .from(webhookEvents);
      expect(events).toEqual([{ outcome: 'unknown-sender', patientId: null, sender: expected.sender }]);
    }

    const second = await POST(webhookRequest(new Uint8Array(raw)));
    expect(second.status).toBe(200);
    expect(await second.json()).toMatchObject({ recorded: 0, duplicates: 1 });
    expect(await snapshot()).toEqual(after);
  });

  it('accepts the captured delivery with its own signature, byte for byte', async () => {
    const raw = new Uint8Array(fs.readFileSync(path.join(directory, vector.raw_body_file)));
    const response = await POST(webhookRequest(raw, { 'x-hub-signature-256': vector.x_hub_signature_256 }));
    expect(response.status).toBe(200);
  });

  it('refuses unsigned and forged deliveries with 401, audits them without the body, and records nothing', async () => {
    const body = fs.readFileSync(path.join(directory, 'split/inbound_text.json'), 'utf8');
    const unsigned = await POST(webhookRequest(body, { 'x-hub-signature-256': null, 'x-request-id': 'req-wa-unsigned' }));
    expect(unsigned.status).toBe(401);
    const forgedBody = body.replace('Body Text', 'STOP');
    const forged = await POST(
      webhookRequest(forgedBody, {
        'x-hub-signature-256': whatsAppSignatureOf(new TextEncoder().encode(body), appSecret),
        'x-request-id': 'req-wa-forged',
      }),
    );
    expect(forged.status).toBe(401);
    expect(await snapshot()).toEqual({ messages: [], events: [] });
    for (const [requestId, reason] of [
      ['req-wa-unsigned', 'unsigned'],
      ['req-wa-forged', 'wrong-signature'],
    ] as const) {
      const rows = await database.database
        .select({ action: auditLog.action, outcome: auditLog.outcome, details: auditLog.details })
        .from(auditLog)
        .where(eq(auditLog.requestId, requestId));
      expect(rows).toEqual([
        {
          action: 'webhook.signature-refused',
          outcome: 'denied',
          details: { provider: 'whatsapp', path: '/api/webhooks/whatsapp', reason },
        },
      ]);
    }
  });

  it('reads no byte of an unsigned body', async () => {
    let pulled = 0;
    const large = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        if (pulled > 64) controller.close();
        else controller.enqueue(new Uint8Array(64 * 1024));
      },
    });
    const request = new Request('http://localhost:3000/api/webhooks/whatsapp', {
      method: 'POST',
      body: large,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect((await POST(request)).status).toBe(401);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('refuses a body over 256 KB with 413 before reading it all, and a non-JSON signed body with 400', async () => {
    const huge = envelope({ statuses: [], padding: 'x'.repeat(256 * 1024) });
    expect((await POST(webhookRequest(huge))).status).toBe(413);
    const notJson = await POST(webhookRequest('{"object":'));
    expect(notJson.status).toBe(400);
    expect(await snapshot()).toEqual({ messages: [], events: [] });
  });

  it('acknowledges events it does not act on with 200 and changes nothing', async () => {
    const bodies = [
      envelope({ event: 'VERIFIED_ACCOUNT' }, 'account_update'),
      envelope({ event: 'APPROVED', message_template_name: 'reminder' }, 'message_template_status_update'),
      envelope({ event: 'FLAGGED', current_limit: 'TIER_1K' }, 'phone_number_quality_update'),
      envelope({ calls: [{ id: 'wacid.1', event: 'connect' }] }, 'calls'),
      envelope({
        messages: [{ from: '972987654321', id: 'wamid.sys', timestamp: '1697043223', type: 'system', system: { body: 'changed number' } }],
      }),
      envelope({
        messages: [{ from: '972987654321', id: 'wamid.uns', timestamp: '1697043223', type: 'unsupported', errors: [{ code: 131051 }] }],
      }),
      envelope({
        messages: [
          { from: '972987654321', id: 'wamid.edit', timestamp: '1697043223', type: 'edit', edit: { original_message_id: 'wamid.x' } },
        ],
      }),
      envelope({
        messages: [
          { from: '972987654321', id: 'wamid.rev', timestamp: '1697043223', type: 'revoke', revoke: { original_message_id: 'wamid.x' } },
        ],
      }),
      envelope({
        messages: [
          { from: '972987654321', id: 'wamid.unreact', timestamp: '1697043223', type: 'reaction', reaction: { message_id: 'wamid.x' } },
        ],
      }),
      envelope({ statuses: [{ id: outboundWamid, status: 'deleted', timestamp: '1697043223' }] }),
      JSON.stringify({ object: 'page', entry: [] }),
    ];
    await seedOutbound();
    const before = await snapshot();
    for (const body of bodies) {
      const response = await POST(webhookRequest(body));
      expect([body, response.status]).toEqual([body, 200]);
      expect(await response.json()).toMatchObject({ recorded: 0, duplicates: 0 });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('keeps statuses in the order they happened whatever order they arrive in, and a late one does not move the message back', async () => {
    const outboundId = await seedOutbound('wamid.order');
    const status = (name: string, timestamp: number, extra: Record<string, unknown> = {}) => ({
      id: 'wamid.order',
      status: name,
      timestamp: String(timestamp),
      recipient_id: '972987654321',
      ...extra,
    });
    // One delivery with two statuses, then the earlier one, then a status of a message we do not hold.
    expect(
      (await POST(webhookRequest(envelope({ statuses: [status('read', 1_700_000_300), status('delivered', 1_700_000_200)] })))).status,
    ).toBe(200);
    const late = await POST(
      webhookRequest(envelope({ statuses: [status('sent', 1_700_000_100), { ...status('sent', 1), id: 'wamid.not-ours' }] })),
    );
    expect(await late.json()).toEqual({ recorded: 1, duplicates: 0, unmatched: 1, ignored: 0 });
    const [message] = await database.database
      .select({ status: messages.status, statusHistory: messages.statusHistory })
      .from(messages)
      .where(eq(messages.id, outboundId));
    expect(message).toEqual({
      status: 'read',
      statusHistory: [
        { status: 'sent', at: '2023-11-14T22:15:00.000Z' },
        { status: 'delivered', at: '2023-11-14T22:16:40.000Z' },
        { status: 'read', at: '2023-11-14T22:18:20.000Z' },
      ],
    });
    const unknown = await database.database
      .select({ outcome: webhookEvents.outcome, messageId: webhookEvents.messageId })
      .from(webhookEvents)
      .where(eq(webhookEvents.providerMessageId, 'wamid.not-ours'));
    expect(unknown).toEqual([{ outcome: 'unknown-message', messageId: null }]);
  });

  it('applies single-status deliveries of one message arriving together, out of order, each once and in time order', async () => {
    const outboundId = await seedOutbound('wamid.together');
    const single = (name: string, timestamp: number) =>
      webhookRequest(
        envelope({ statuses: [{ id: 'wamid.together', status: name, timestamp: String(timestamp), recipient_id: '972987654321' }] }),
      );
    const responses = await Promise.all([
      POST(single('read', 1_700_000_300)),
      POST(single('sent', 1_700_000_100)),
      POST(single('delivered', 1_700_000_200)),
      POST(single('read', 1_700_000_300)),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const [message] = await database.database
      .select({ status: messages.status, statusHistory: messages.statusHistory })
      .from(messages)
      .where(eq(messages.id, outboundId));
    expect(message).toEqual({
      status: 'read',
      statusHistory: [
        { status: 'sent', at: '2023-11-14T22:15:00.000Z' },
        { status: 'delivered', at: '2023-11-14T22:16:40.000Z' },
        { status: 'read', at: '2023-11-14T22:18:20.000Z' },
      ],
    });
  });

  it('applies a delivery retried concurrently once', async () => {
    await seedOutbound();
    const body = fs.readFileSync(path.join(directory, 'split/status_delivered.json'), 'utf8');
    const responses = await Promise.all([1, 2, 3, 4].map(() => POST(webhookRequest(body))));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    const counts = await Promise.all(responses.map((response) => response.json() as Promise<{ recorded: number; duplicates: number }>));
    expect(counts.reduce((sum, count) => sum + count.recorded, 0)).toBe(1);
    expect(counts.reduce((sum, count) => sum + count.duplicates, 0)).toBe(3);
    const [message] = await database.database.select({ statusHistory: messages.statusHistory }).from(messages);
    expect(message!.statusHistory.map((entry) => entry.status)).toEqual(['delivered']);
  });

  it('reads an opt-out keyword as a keyword, for the consent ledger to act on', async () => {
    const body = envelope({
      messages: [{ from: '972987654321', id: 'wamid.stop', timestamp: '1697043223', type: 'text', text: { body: 'STOP' } }],
    });
    expect((await POST(webhookRequest(body))).status).toBe(200);
    const [message] = await database.database.select({ reading: messages.inboundReading }).from(messages);
    expect(message!.reading?.interpretation).toEqual({ kind: 'keyword', keyword: { action: 'opt-out', keyword: 'STOP', language: 'en' } });
  });
});

describe('/api/webhooks/whatsapp without configuration', () => {
  it('refuses with 503 (GET and POST) when WHATSAPP_APP_SECRET or WHATSAPP_VERIFY_TOKEN is unset', async () => {
    const saved = process.env.WHATSAPP_APP_SECRET;
    delete process.env.WHATSAPP_APP_SECRET;
    try {
      vi.resetModules();
      const route = await import('./route');
      const get = await route.GET(
        new Request(`http://localhost:3000/api/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1`),
      );
      expect(get.status).toBe(503);
      const post = await route.POST(webhookRequest(envelope({ statuses: [] })));
      expect(post.status).toBe(503);
    } finally {
      process.env.WHATSAPP_APP_SECRET = saved;
    }
  });
});
