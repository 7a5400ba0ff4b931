/**
 * /dev/phone's replies take the providers' path: signed like WhatsApp and Twilio sign, posted to the webhook
 * routes, checked against the local channel's derived secrets (no WHATSAPP_APP_SECRET or TWILIO_AUTH_TOKEN
 * here), recorded once, followed up by the reply job. A forged post is refused.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authUsers, doseEvents, jobs, messages, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { getPhoneView, sendPhoneReply } from '@/features/messaging-webhooks';
import { actOnInboundMessage } from '@/features/message-replies';
import { getEnvironment } from '@/lib/env';
import { type RouteTestServer, serveRoutesFrom } from '@/lib/server/route-testing';
import { POST as postTwilioSms } from '../../api/webhooks/twilio/sms/route';
import { POST as postWhatsApp } from '../../api/webhooks/whatsapp/route';

process.env.DEV_OUTBOX = 'true';
delete process.env.WHATSAPP_APP_SECRET;
delete process.env.WHATSAPP_VERIFY_TOKEN;
delete process.env.TWILIO_AUTH_TOKEN;
delete process.env.TWILIO_ACCOUNT_SID;
delete process.env.TWILIO_FROM;

const now = new Date('2026-11-24T09:00:00Z');

/** Calls the route handlers the way the server would for these requests. */
async function post(url: string, init: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  return new URL(url).pathname === '/api/webhooks/whatsapp' ? postWhatsApp(request) : postTwilioSms(request);
}

describe.each(testDatabaseBackends())('/dev/phone replies on $name', (backend) => {
  let database: TestDatabase;
  let server: RouteTestServer;
  let patientId: string;
  let outboundId: string;

  beforeAll(async () => {
    database = await backend.create();
    server = await serveRoutesFrom(database);
    const db = database.database;
    await db
      .insert(authUsers)
      .values({ id: 'user-ph', name: 'P', email: 'ph@medaptive.test', phoneNumber: '+447700900555', phoneNumberVerified: true });
    [{ id: patientId }] = (await db
      .insert(patients)
      .values({ pseudonym: 'P-PH', source: 'test', sourceRecordId: 'ph', userId: 'user-ph' })
      .returning({ id: patients.id })) as [{ id: string }];
    [{ id: outboundId }] = (await db
      .insert(messages)
      .values({
        patientId,
        channel: 'whatsapp',
        direction: 'outbound',
        body: 'Time for your dose',
        sentAt: new Date(now.getTime() - 60_000),
        status: 'delivered',
        providerMessageId: 'wamid.local.out-1',
        source: 'live',
        sourceRecordId: 'wamid.local.out-1',
      })
      .returning({ id: messages.id })) as [{ id: string }];
  });
  afterAll(async () => {
    server.restore();
    await database.dispose();
  });

  it('taps "Taken" through the signed WhatsApp webhook: one reply answering the wamid, one dose taken', async () => {
    const db = database.database;
    const environment = getEnvironment();
    await sendPhoneReply({
      database: db,
      environment,
      input: { kind: 'button', patientId, messageId: outboundId, action: 'taken' },
      now,
      post,
    });
    const [reply] = await db
      .select({ id: messages.id, body: messages.body, replyTo: messages.replyToProviderMessageId })
      .from(messages)
      .where(eq(messages.direction, 'inbound'));
    expect(reply).toMatchObject({ body: 'Taken ✓', replyTo: 'wamid.local.out-1' });
    const [job] = await db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, 'inbound-message-received'));
    expect(job?.payload).toEqual({ messageId: reply!.id });
    await actOnInboundMessage({ database: db, messageId: reply!.id, now });
    expect(await db.select({ status: doseEvents.status, source: doseEvents.source }).from(doseEvents)).toEqual([
      { status: 'taken', source: 'whatsapp-reply' },
    ]);
  });

  it('shows an interactive list’s rows and taps one as a list_reply quoting the message (decision 051)', async () => {
    const db = database.database;
    const environment = getEnvironment();
    const choices = {
      kind: 'list' as const,
      choices: [
        { id: 'survey:c1:stress:often', title: 'Often' },
        { id: 'survey:c1:stress:never', title: 'Never' },
      ],
    };
    const [{ id: listId }] = (await db
      .insert(messages)
      .values({
        patientId,
        channel: 'whatsapp',
        direction: 'outbound',
        body: 'How often do you feel stressed?',
        sentAt: new Date(now.getTime() - 30_000),
        status: 'sent',
        providerMessageId: 'wamid.local.list-1',
        replyChoices: choices,
        source: 'live',
        sourceRecordId: 'wamid.local.list-1',
      })
      .returning({ id: messages.id })) as [{ id: string }];
    const view = await getPhoneView({ database: db, environment, patientId });
    const thread = view!.threads.find((each) => each.channel === 'whatsapp')!;
    expect(thread.buttonsFor).toBe(listId);
    expect(thread.choices).toEqual({
      kind: 'list',
      options: [
        { id: 'survey:c1:stress:often', label: 'Often' },
        { id: 'survey:c1:stress:never', label: 'Never' },
      ],
    });

    await sendPhoneReply({
      database: db,
      environment,
      input: { kind: 'choice', patientId, messageId: listId, choiceId: 'survey:c1:stress:never' },
      now,
      post,
    });
    const [reply] = await db
      .select({ body: messages.body, replyTo: messages.replyToProviderMessageId, reading: messages.inboundReading })
      .from(messages)
      .where(eq(messages.replyToProviderMessageId, 'wamid.local.list-1'));
    expect(reply).toMatchObject({
      body: 'Never',
      reading: { content: { kind: 'button', payload: 'survey:c1:stress:never', title: 'Never' } },
    });
    // Only a choice the message offered.
    await expect(
      sendPhoneReply({
        database: db,
        environment,
        input: { kind: 'choice', patientId, messageId: listId, choiceId: 'survey:c1:stress:made-up' },
        now,
        post,
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('shows a template’s quick replies and taps one as a `button` message with its payload (decision 056)', async () => {
    const db = database.database;
    const environment = getEnvironment();
    const [{ id: invitationId }] = (await db
      .insert(messages)
      .values({
        patientId,
        channel: 'whatsapp',
        direction: 'outbound',
        body: 'Your care team would like you to answer a short survey.\n[Start] [Not now]',
        sentAt: new Date(now.getTime() - 20_000),
        status: 'sent',
        providerMessageId: 'wamid.local.invite-1',
        replyChoices: {
          kind: 'quick-replies',
          choices: [
            { id: 'survey:i1:start', title: 'Start' },
            { id: 'survey:i1:not-now', title: 'Not now' },
          ],
        },
        source: 'live',
        sourceRecordId: 'wamid.local.invite-1',
      })
      .returning({ id: messages.id })) as [{ id: string }];
    const view = await getPhoneView({ database: db, environment, patientId });
    expect(view!.threads.find((each) => each.channel === 'whatsapp')!.choices).toEqual({
      kind: 'quick-replies',
      options: [
        { id: 'survey:i1:start', label: 'Start' },
        { id: 'survey:i1:not-now', label: 'Not now' },
      ],
    });
    const posted: unknown[] = [];
    await sendPhoneReply({
      database: db,
      environment,
      input: { kind: 'choice', patientId, messageId: invitationId, choiceId: 'survey:i1:start' },
      now,
      post: async (url, init) => {
        posted.push(JSON.parse(new TextDecoder().decode(init.body as Uint8Array)));
        return post(url, init);
      },
    });
    // What WhatsApp sends for a template's quick reply: a `button` message, not an interactive button_reply.
    expect(posted).toEqual([
      expect.objectContaining({
        entry: [
          expect.objectContaining({
            changes: [
              expect.objectContaining({
                value: expect.objectContaining({
                  messages: [
                    expect.objectContaining({
                      type: 'button',
                      button: { payload: 'survey:i1:start', text: 'Start' },
                      context: { from: 'local', id: 'wamid.local.invite-1' },
                    }),
                  ],
                }),
              }),
            ],
          }),
        ],
      }),
    ]);
    const [reply] = await db
      .select({ body: messages.body, reading: messages.inboundReading })
      .from(messages)
      .where(eq(messages.replyToProviderMessageId, 'wamid.local.invite-1'));
    expect(reply).toMatchObject({ body: 'Start', reading: { content: { kind: 'button', payload: 'survey:i1:start', title: 'Start' } } });
  });

  it('sends an SMS through the signed Twilio webhook', async () => {
    const db = database.database;
    await sendPhoneReply({
      database: db,
      environment: getEnvironment(),
      input: { kind: 'text', patientId, channel: 'sms', text: 'HELP' },
      now,
      post,
    });
    const rows = await db.select({ body: messages.body }).from(messages).where(eq(messages.channel, 'sms'));
    expect(rows).toEqual([{ body: 'HELP' }]);
  });

  it('refuses a forged WhatsApp delivery (401) even with the local secrets in use', async () => {
    const response = await postWhatsApp(
      new Request('http://localhost/api/webhooks/whatsapp', {
        method: 'POST',
        body: JSON.stringify({ object: 'whatsapp_business_account', entry: [] }),
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
      }),
    );
    expect(response.status).toBe(401);
  });
});
