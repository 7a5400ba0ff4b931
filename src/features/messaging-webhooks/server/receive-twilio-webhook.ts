import 'server-only';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import type { RequestContext } from '@/lib/server/request-context';
import { isTwilioSignatureValid } from '@/lib/server/webhook-signatures';
import { twilioInboundSchema, twilioStatusSchema } from '../schemas';
import { twilioInboundEvent, twilioStatusEvent, type WebhookEvent } from '../webhook-events';
import { recordWebhookEvents } from './record-webhook-events';
import { refuseWebhook } from './refuse-webhook';
import type { WebhookReceipt } from './receive-whatsapp-webhook';
import type { TwilioWebhookSettings } from './webhook-settings';

export type TwilioWebhookKind = 'sms' | 'status';

/**
 * One POST from Twilio: an inbound message (/api/webhooks/twilio/sms) or a status callback
 * (/api/webhooks/twilio/status). The signature is checked against the public URL Twilio was given
 * (PUBLIC_URL + path + query), never the address the server sees behind a proxy; then the event is applied
 * exactly once (MessageSid, or MessageSid + status).
 */
export async function receiveTwilioWebhook(options: {
  database: Database;
  settings: TwilioWebhookSettings;
  kind: TwilioWebhookKind;
  /** The path and query the request came to ("/api/webhooks/twilio/sms?x=1"). */
  pathAndQuery: string;
  /** Reads the form body (bounded); not called for an unsigned request. */
  readFormBody: () => Promise<string>;
  signature: string | null;
  request: RequestContext;
  now?: Date;
}): Promise<WebhookReceipt> {
  const { database, settings, signature } = options;
  const refuse = async () =>
    refuseWebhook({
      database,
      provider: 'twilio',
      path: options.pathAndQuery.split('?', 1)[0]!,
      signaturePresent: !!signature,
      request: options.request,
    });
  // Unsigned: refused before a byte of the body is read; the signature covers the parameters, so they come next.
  if (!signature) throw await refuse();
  const params: Record<string, string> = Object.fromEntries(new URLSearchParams(await options.readFormBody()));
  const url = `${settings.publicUrl}${options.pathAndQuery}`;
  if (!isTwilioSignatureValid({ url, params, signature, authToken: settings.authToken })) throw await refuse();
  const event = twilioEventOf(options.kind, params, options.now ?? new Date());
  return { ...(await recordWebhookEvents({ database, events: [event] })), ignored: 0 };
}

/** Twilio's callbacks carry no event time: the time we received one stands in. */
function twilioEventOf(kind: TwilioWebhookKind, params: Record<string, string>, at: Date): WebhookEvent {
  if (kind === 'sms') {
    const inbound = parseInput(twilioInboundSchema, params, { label: 'The Twilio message webhook' });
    return twilioInboundEvent({ messageSid: inbound.MessageSid, from: inbound.From, body: inbound.Body, numMedia: inbound.NumMedia, at });
  }
  const status = parseInput(twilioStatusSchema, params, { label: 'The Twilio status callback' });
  return twilioStatusEvent({ messageSid: status.MessageSid, status: status.MessageStatus, errorCode: status.ErrorCode, to: status.To, at });
}
