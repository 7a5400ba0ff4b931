import 'server-only';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import type { RequestContext } from '@/lib/server/request-context';
import { isWhatsAppSignatureValid } from '@/lib/server/webhook-signatures';
import { whatsAppEnvelopeSchema, whatsAppMessagesValueSchema } from '../schemas';
import { type WebhookEvent, whatsAppInboundEvent, whatsAppStatusEvent } from '../webhook-events';
import { recordWebhookEvents, type WebhookRecording } from './record-webhook-events';
import { refuseWebhook } from './refuse-webhook';

/** What a delivery did; `inbound` lists the messages stored now, for the features that act on them. */
export type WebhookReceipt = WebhookRecording & { ignored: number };

/**
 * One POST of the WhatsApp Cloud API: the signature over the raw bytes first (nothing is parsed from an
 * unsigned body), then every status and inbound message of every change applied exactly once. Changes of
 * other fields (calls, account, template and quality updates) and kinds we do not act on are counted as ignored:
 * Meta only needs the 200.
 */
export async function receiveWhatsAppWebhook(options: {
  database: Database;
  appSecret: string;
  /** Reads the raw body (bounded); not called for an unsigned request. */
  readRawBody: () => Promise<Uint8Array>;
  signature: string | null;
  path: string;
  request: RequestContext;
}): Promise<WebhookReceipt> {
  const { database, signature } = options;
  const refuse = async () =>
    refuseWebhook({ database, provider: 'whatsapp', path: options.path, signaturePresent: signature !== null, request: options.request });
  // Unsigned: refused before a byte of the body is read. Signed: the HMAC covers the exact bytes, so they are read first.
  if (signature === null) throw await refuse();
  const rawBody = await options.readRawBody();
  if (!isWhatsAppSignatureValid({ rawBody, signature, appSecret: options.appSecret })) throw await refuse();
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(rawBody));
  } catch {
    json = undefined;
  }
  const envelope = parseInput(whatsAppEnvelopeSchema, json, { label: 'The WhatsApp webhook' });
  const events: WebhookEvent[] = [];
  let ignored = 0;
  if (envelope.object === 'whatsapp_business_account') {
    for (const [entryIndex, entry] of envelope.entry.entries()) {
      for (const [changeIndex, change] of entry.changes.entries()) {
        if (change.field !== 'messages') {
          ignored += 1;
          continue;
        }
        const value = parseInput(whatsAppMessagesValueSchema, change.value, {
          label: `The WhatsApp webhook (entry.${entryIndex}.changes.${changeIndex}.value)`,
        });
        for (const status of value.statuses ?? []) pushOrIgnore(whatsAppStatusEvent(status));
        for (const message of value.messages ?? []) pushOrIgnore(whatsAppInboundEvent(message));
      }
    }
  }
  function pushOrIgnore(event: WebhookEvent | null) {
    if (event === null) ignored += 1;
    else events.push(event);
  }
  // Acting on what came in (STOP/START/HELP in the consent ledger, a dose answer on the calendar) belongs to
  // the features that own those; they read `inbound` (or messages.inbound_reading). This only records.
  return { ...(await recordWebhookEvents({ database, events })), ignored };
}
