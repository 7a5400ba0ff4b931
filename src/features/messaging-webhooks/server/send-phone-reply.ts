import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
// The official library's signing (deep import, as the check in webhook-signatures.ts).
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks';
import type { Database } from '@/db/client';
import { messages } from '@/db/schema';
import { quickReplyButtons } from '@/engine/messaging';
import { outboxIsAvailable } from '@/features/outbox';
import type { Environment } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { whatsAppSignatureOf } from '@/lib/server/webhook-signatures';
import { phoneReplySchema } from '../phone-schemas';
import { digitsOf } from '../webhook-events';
import { findPhonePatient } from './find-phone-patient';
import { phoneLanguageOf } from './get-phone-view';
import { loadTwilioWebhookSettings, loadWhatsAppWebhookSettings } from './webhook-settings';

export const whatsAppWebhookPath = '/api/webhooks/whatsapp';
export const twilioInboundPath = '/api/webhooks/twilio/sms';

/**
 * Where this server answers on its own machine: loopback when it listens on every interface (or loopback),
 * else the address it listens on. The phone posts here rather than to PUBLIC_URL, which may be a proxy.
 */
export function ownOrigin(environment: Environment): string {
  const host = ['0.0.0.0', '::', '127.0.0.1', 'localhost', '::1'].includes(environment.HOST) ? '127.0.0.1' : environment.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${environment.PORT}`;
}

/**
 * A reply from /dev/phone, sent the way the provider would send it: a WhatsApp Cloud API webhook (a quick-reply
 * button answering the tapped message, with context.id its wamid, or text) signed with X-Hub-Signature-256, or
 * a Twilio inbound-message form signed with X-Twilio-Signature, POSTed over HTTP to this server's own webhook
 * routes. So the reply takes the production path: signature check, exactly-once recording, the follow-up job.
 */
export async function sendPhoneReply(options: {
  database: Database;
  environment: Environment;
  input: unknown;
  now: Date;
  /** The HTTP client (tests pass one that calls the route handlers). */
  post?: (url: string, init: RequestInit) => Promise<Response>;
}): Promise<{ status: number }> {
  const { database, environment } = options;
  if (!outboxIsAvailable(environment)) throw new AppError('not_found', 'There is no phone here.');
  const input = parseInput(phoneReplySchema, options.input, { label: 'The phone reply' });
  const patient = await findPhonePatient({ database, patientId: input.patientId });
  if (patient === null) throw new AppError('not_found', 'patientId: no patient with a verified number has this id.');
  const post = options.post ?? ((url, init) => fetch(url, init));
  const timestamp = String(Math.floor(options.now.getTime() / 1000));
  const from = digitsOf(patient.phoneNumber);

  let response: Response;
  if (input.kind === 'button' || input.kind === 'choice' || input.channel === 'whatsapp') {
    const settings = await loadWhatsAppWebhookSettings({ database, environment });
    if (settings === null)
      throw new AppError('unavailable', 'The WhatsApp webhook is not configured here (WHATSAPP_APP_SECRET, WHATSAPP_VERIFY_TOKEN).');
    let message: Record<string, unknown>;
    if (input.kind === 'button') {
      const [answered] = await database
        .select({ wamid: messages.providerMessageId, language: messages.templateLanguage })
        .from(messages)
        .where(
          and(
            eq(messages.id, input.messageId),
            eq(messages.patientId, patient.id),
            eq(messages.channel, 'whatsapp'),
            eq(messages.direction, 'outbound'),
          ),
        );
      if (answered?.wamid == null) throw new AppError('not_found', 'messageId: this patient has no such WhatsApp message.');
      const button = quickReplyButtons(phoneLanguageOf(answered.language ?? patient.language)).find(
        (each) => each.action === input.action,
      )!;
      message = { type: 'button', button: { payload: button.payload, text: button.title }, context: { from: 'local', id: answered.wamid } };
    } else if (input.kind === 'choice') {
      const [answered] = await database
        .select({ wamid: messages.providerMessageId, choices: messages.replyChoices })
        .from(messages)
        .where(
          and(
            eq(messages.id, input.messageId),
            eq(messages.patientId, patient.id),
            eq(messages.channel, 'whatsapp'),
            eq(messages.direction, 'outbound'),
          ),
        );
      const choice = answered?.choices?.choices.find((each) => each.id === input.choiceId);
      if (answered?.wamid == null || answered.choices == null || choice === undefined)
        throw new AppError('not_found', 'choiceId: this patient has no such interactive WhatsApp message or choice.');
      if (answered.choices.kind === 'quick-replies') {
        // A template's quick-reply button: a `button` message with the payload we set, quoting ours.
        message = { type: 'button', button: { payload: choice.id, text: choice.title }, context: { from: 'local', id: answered.wamid } };
      } else {
        // What WhatsApp sends for a tapped reply button or list row: an interactive message quoting ours.
        const reply = answered.choices.kind === 'list' ? 'list_reply' : 'button_reply';
        message = {
          type: 'interactive',
          interactive: { type: reply, [reply]: { id: choice.id, title: choice.title } },
          context: { from: 'local', id: answered.wamid },
        };
      }
    } else {
      message = { type: 'text', text: { body: input.text } };
    }
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: 'local',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: 'local', phone_number_id: 'local' },
                contacts: [{ profile: { name: patient.pseudonym }, wa_id: from }],
                messages: [{ from, id: `wamid.local.in.${randomUUID()}`, timestamp, ...message }],
              },
            },
          ],
        },
      ],
    });
    const bytes = new TextEncoder().encode(body);
    response = await post(`${ownOrigin(environment)}${whatsAppWebhookPath}`, {
      method: 'POST',
      body: bytes,
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': whatsAppSignatureOf(bytes, settings.appSecret) },
    });
  } else {
    const settings = await loadTwilioWebhookSettings({ database, environment });
    if (settings === null) throw new AppError('unavailable', 'The Twilio webhook is not configured here (TWILIO_AUTH_TOKEN, PUBLIC_URL).');
    const params = {
      MessageSid: `SMlocal${randomUUID().replaceAll('-', '')}`,
      AccountSid: 'AClocal',
      From: `+${from}`,
      To: 'local',
      Body: input.text,
      NumMedia: '0',
    };
    // Twilio signs the URL it was given (PUBLIC_URL + path), which is what the route checks against.
    const signature = getExpectedTwilioSignature(settings.authToken, `${settings.publicUrl}${twilioInboundPath}`, params);
    response = await post(`${ownOrigin(environment)}${twilioInboundPath}`, {
      method: 'POST',
      body: new URLSearchParams(params).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signature },
    });
  }
  if (!response.ok) throw new AppError('internal', `The webhook refused the phone's reply (HTTP ${response.status}).`);
  return { status: response.status };
}
