import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalTwilioApi, startLocalTwilioApi } from '../../../../tests/support/local-twilio-api';
import { type LocalWhatsAppCloudApi, startLocalWhatsAppCloudApi } from '../../../../tests/support/local-whatsapp-cloud-api';
import { ChannelSendError } from './channel-send-error';
import { createTwilioSmsAdapter } from './twilio-sms-adapter';
import { createWhatsAppCloudAdapter, whatsAppGraphVersion } from './whatsapp-cloud-adapter';

const to = '+447700900123';

describe('WhatsApp Cloud API adapter against the local Cloud API', () => {
  let api: LocalWhatsAppCloudApi;
  beforeAll(async () => {
    api = await startLocalWhatsAppCloudApi();
  });
  afterAll(async () => {
    await api.stop();
  });
  const adapter = () => createWhatsAppCloudAdapter({ apiUrl: api.url, phoneNumberId: api.phoneNumberId, accessToken: api.accessToken });

  it('sends a template with named body parameters and quick-reply payloads, with the Bearer token', async () => {
    const accepted = await adapter().send({
      to,
      channel: 'whatsapp',
      content: {
        kind: 'template',
        name: 'medaptive_reminder_gain_1',
        language: 'en',
        parameters: [{ name: 'medicine', text: 'Metformin' }],
        buttonPayloads: ['dose.taken:d1', 'dose.not-yet:d1', 'dose.skip:d1'],
      },
    });
    expect(accepted.providerMessageId).toMatch(/^wamid\./);
    const request = api.received.at(-1)!;
    expect(request.path).toBe(`/${whatsAppGraphVersion}/${api.phoneNumberId}/messages`);
    expect(request.authorization).toBe(`Bearer ${api.accessToken}`);
    expect(request.body).toMatchObject({
      messaging_product: 'whatsapp',
      to: '447700900123',
      type: 'template',
      template: {
        name: 'medaptive_reminder_gain_1',
        language: { code: 'en' },
        components: [
          { type: 'body', parameters: [{ type: 'text', parameter_name: 'medicine', text: 'Metformin' }] },
          { type: 'button', sub_type: 'quick_reply', index: '0', parameters: [{ type: 'payload', payload: 'dose.taken:d1' }] },
          { type: 'button', sub_type: 'quick_reply', index: '1' },
          { type: 'button', sub_type: 'quick_reply', index: '2' },
        ],
      },
    });
  });

  it('is refused, as Meta refuses it, a template the account has not got or whose parameters do not match it', async () => {
    const strict = await startLocalWhatsAppCloudApi({
      templates: [{ name: 'medaptive_survey_invitation', language: 'en', bodyParameters: ['survey', 'questions'], quickReplies: 2 }],
    });
    try {
      const send = (content: { name: string; parameters: { name: string; text: string }[]; buttonPayloads: string[] }) =>
        createWhatsAppCloudAdapter({ apiUrl: strict.url, phoneNumberId: strict.phoneNumberId, accessToken: strict.accessToken }).send({
          to,
          channel: 'whatsapp',
          content: { kind: 'template', language: 'en', ...content },
        });
      const parameters = [
        { name: 'survey', text: 'Lifestyle' },
        { name: 'questions', text: '5' },
      ];
      await expect(send({ name: 'medaptive_survey_invitation', parameters, buttonPayloads: ['a', 'b'] })).resolves.toMatchObject({
        status: 'accepted',
      });
      const refusal = (providerCode: string) => expect.objectContaining({ providerCode, code: 'validation' });
      await expect(send({ name: 'medaptive_unknown', parameters, buttonPayloads: [] })).rejects.toEqual(refusal('132001'));
      await expect(send({ name: 'medaptive_survey_invitation', parameters: parameters.slice(1), buttonPayloads: [] })).rejects.toEqual(
        refusal('132000'),
      );
      await expect(send({ name: 'medaptive_survey_invitation', parameters, buttonPayloads: ['a', 'b', 'c'] })).rejects.toEqual(
        refusal('132000'),
      );
      // The invitation's reminder (decision 065) is a template of its own: refused by an account that has not got it.
      await expect(send({ name: 'medaptive_survey_invitation_reminder', parameters, buttonPayloads: ['a', 'b'] })).rejects.toEqual(
        refusal('132001'),
      );
      expect(strict.accepted()).toHaveLength(1);
    } finally {
      await strict.stop();
    }
  });

  it('accepts the invitation’s reminder template once the account has it approved, with the invitation’s parameters and buttons', async () => {
    const both = await startLocalWhatsAppCloudApi({
      templates: ['medaptive_survey_invitation', 'medaptive_survey_invitation_reminder'].map((name) => ({
        name,
        language: 'en',
        bodyParameters: ['survey', 'questions'],
        quickReplies: 2,
      })),
    });
    try {
      const adapter = createWhatsAppCloudAdapter({ apiUrl: both.url, phoneNumberId: both.phoneNumberId, accessToken: both.accessToken });
      const content = {
        kind: 'template' as const,
        name: 'medaptive_survey_invitation_reminder',
        language: 'en',
        parameters: [
          { name: 'survey', text: 'Lifestyle' },
          { name: 'questions', text: '5' },
        ],
        buttonPayloads: ['survey:c1:start', 'survey:c1:not-now'],
      };
      await expect(adapter.send({ to, channel: 'whatsapp', content })).resolves.toMatchObject({ status: 'accepted' });
      await expect(
        adapter.send({ to, channel: 'whatsapp', content: { ...content, parameters: content.parameters.slice(0, 1) } }),
      ).rejects.toEqual(expect.objectContaining({ providerCode: '132000' }));
      expect(both.accepted()).toHaveLength(1);
    } finally {
      await both.stop();
    }
  });

  it('sends interactive reply buttons and plain text', async () => {
    await adapter().send({
      to,
      channel: 'whatsapp',
      content: { kind: 'interactive-buttons', body: 'Time for your dose.', buttons: [{ title: 'Taken ✓', payload: 'dose.taken:d2' }] },
    });
    expect(api.received.at(-1)!.body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Time for your dose.' },
        action: { buttons: [{ type: 'reply', reply: { id: 'dose.taken:d2', title: 'Taken ✓' } }] },
      },
    });
    await adapter().send({ to, channel: 'whatsapp', content: { kind: 'text', body: 'Reply STOP to stop.' } });
    expect(api.received.at(-1)!.body).toMatchObject({ type: 'text', text: { body: 'Reply STOP to stop.' } });
  });

  it('sends an interactive list (a survey question), which the local Cloud API checks against Meta’s limits', async () => {
    const rows = Array.from({ length: 8 }, (_, days) => ({ title: `${days} days`, payload: `survey:c1:ipaq-vigorous-days:${days}` }));
    await adapter().send({
      to,
      channel: 'whatsapp',
      content: { kind: 'interactive-list', body: 'On how many days…?', buttonText: 'Choose an answer', rows },
    });
    expect(api.received.at(-1)!.body).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'On how many days…?' },
        action: { button: 'Choose an answer' },
      },
    });
    const sent = api.received.at(-1)!.body as { interactive: { action: { sections: { rows: unknown[] }[] } } };
    expect(sent.interactive.action.sections).toHaveLength(1);
    expect(sent.interactive.action.sections[0]!.rows).toEqual(rows.map(({ title, payload }) => ({ id: payload, title })));
    expect(api.accepted().at(-1)).toBe(api.received.at(-1));
    // Eleven rows, or a row title past 24 characters: Meta refuses the list (invalid parameter), for good.
    const eleven = Array.from({ length: 11 }, (_, index) => ({ title: `Row ${index}`, payload: `p${index}` }));
    await expect(
      adapter().send({ to, channel: 'whatsapp', content: { kind: 'interactive-list', body: 'Pick', buttonText: 'Choose', rows: eleven } }),
    ).rejects.toMatchObject({ code: 'validation', passing: false, reason: 'whatsapp-100' });
    await expect(
      adapter().send({
        to,
        channel: 'whatsapp',
        content: { kind: 'interactive-list', body: 'Pick', buttonText: 'Choose', rows: [{ title: 'x'.repeat(25), payload: 'p' }] },
      }),
    ).rejects.toMatchObject({ code: 'validation', reason: 'whatsapp-131009' });
  });

  it('maps Meta errors: 5xx and throttling are passing, 131047 and a bad token are permanent', async () => {
    const send = () => adapter().send({ to, channel: 'whatsapp', content: { kind: 'text', body: 'Hello' } });
    api.failNext({ httpStatus: 500, code: 131000 });
    await expect(send()).rejects.toMatchObject({ code: 'unavailable', passing: true, reason: 'whatsapp-131000' });
    api.failNext({ httpStatus: 400, code: 130429 });
    await expect(send()).rejects.toMatchObject({ code: 'rate_limited', passing: true });
    api.failNext({ httpStatus: 400, code: 131047, message: 'Re-engagement message' });
    const refused = await send().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ChannelSendError);
    expect(refused).toMatchObject({ code: 'validation', passing: false, reason: 'whatsapp-131047' });
    expect((refused as Error).message).not.toContain('447700900123');
    const wrongToken = createWhatsAppCloudAdapter({ apiUrl: api.url, phoneNumberId: api.phoneNumberId, accessToken: 'wrong' });
    await expect(wrongToken.send({ to, channel: 'whatsapp', content: { kind: 'text', body: 'x' } })).rejects.toMatchObject({
      reason: 'whatsapp-190',
      passing: false,
    });
  });

  it('the local API refuses what Meta refuses: a fourth button, a title over 20 characters', async () => {
    const buttons = ['a', 'b', 'c', 'd'].map((title) => ({ title, payload: title }));
    await expect(
      adapter().send({ to, channel: 'whatsapp', content: { kind: 'interactive-buttons', body: 'x', buttons } }),
    ).rejects.toMatchObject({
      reason: 'whatsapp-100',
    });
    await expect(
      adapter().send({
        to,
        channel: 'whatsapp',
        content: { kind: 'interactive-buttons', body: 'x', buttons: [{ title: 'x'.repeat(21), payload: 'p' }] },
      }),
    ).rejects.toMatchObject({ reason: 'whatsapp-131009' });
  });

  it('no answer after the request left is uncertain: it may have arrived', async () => {
    api.hangNext();
    const slow = createWhatsAppCloudAdapter({
      apiUrl: api.url,
      phoneNumberId: api.phoneNumberId,
      accessToken: api.accessToken,
      timeoutMs: 300,
    });
    await expect(slow.send({ to, channel: 'whatsapp', content: { kind: 'text', body: 'x' } })).rejects.toMatchObject({
      code: 'unavailable',
      uncertain: true,
      reason: 'whatsapp-no-answer',
    });
  });

  it('an unreachable API is passing trouble, and certainly not sent', async () => {
    const closed = await startLocalWhatsAppCloudApi();
    await closed.stop();
    const unreachable = createWhatsAppCloudAdapter({
      apiUrl: closed.url,
      phoneNumberId: closed.phoneNumberId,
      accessToken: closed.accessToken,
    });
    await expect(unreachable.send({ to, channel: 'whatsapp', content: { kind: 'text', body: 'x' } })).rejects.toMatchObject({
      code: 'unavailable',
      reason: 'whatsapp-unreachable',
      uncertain: false,
    });
  });
});

describe('Twilio SMS adapter (official library) against a local Messages API', () => {
  let api: LocalTwilioApi;
  beforeAll(async () => {
    api = await startLocalTwilioApi();
  });
  afterAll(async () => {
    await api.stop();
  });
  const adapter = () =>
    createTwilioSmsAdapter({
      accountSid: api.accountSid,
      authToken: api.authToken,
      from: '+15005550006',
      apiUrl: api.url,
      statusCallbackUrl: 'https://medaptive.example.org/api/webhooks/twilio/status',
    });

  it('creates the message with the status callback, through TWILIO_API_URL', async () => {
    const accepted = await adapter().send({ to, channel: 'sms', body: 'Medaptive: time for your dose.' });
    expect(accepted).toMatchObject({ providerMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/), status: 'queued' });
    const request = api.accepted().at(-1)!;
    expect(request.path).toBe(`/2010-04-01/Accounts/${api.accountSid}/Messages.json`);
    expect(request.form).toEqual({
      To: to,
      From: '+15005550006',
      Body: 'Medaptive: time for your dose.',
      StatusCallback: 'https://medaptive.example.org/api/webhooks/twilio/status',
    });
  });

  it('maps Twilio errors: 5xx and 429 are passing, 21610 (unsubscribed) is permanent', async () => {
    const send = () => adapter().send({ to, channel: 'sms', body: 'x' });
    api.failNext({ httpStatus: 503, code: 20500 });
    await expect(send()).rejects.toMatchObject({ code: 'unavailable', reason: 'twilio-20500' });
    api.failNext({ httpStatus: 429, code: 20429 });
    await expect(send()).rejects.toMatchObject({ code: 'rate_limited' });
    api.failNext({ httpStatus: 400, code: 21610 });
    await expect(send()).rejects.toMatchObject({ code: 'validation', passing: false, reason: 'twilio-21610' });
  });

  it("a closed port is certainly not sent (retried), read from the library's network error", async () => {
    const closed = await startLocalTwilioApi();
    await closed.stop();
    const unreachable = createTwilioSmsAdapter({
      accountSid: closed.accountSid,
      authToken: closed.authToken,
      from: '+15005550006',
      apiUrl: closed.url,
      statusCallbackUrl: 'https://medaptive.example.org/api/webhooks/twilio/status',
    });
    await expect(unreachable.send({ to, channel: 'sms', body: 'x' })).rejects.toMatchObject({
      code: 'unavailable',
      uncertain: false,
      reason: 'twilio-unreachable',
    });
  });
});
