import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { messages } from '@/db/schema';
import { decideWhatsAppForm } from '@/engine/messaging';
import { AppError } from '@/lib/errors';
import type { SendOutcome, ServiceReplyPayload } from '../schemas';
import type { ChannelAdapters } from './channel-adapter';
import {
  claimOutboundMessage,
  deliverClaimedMessage,
  e164,
  findPatientContact,
  lastInboundWhatsAppAt,
  outboundMessageSource,
} from './outbound-messages';

/**
 * The 'service-reply' job: the service's own answer to a keyword (HELP, the STOP and START confirmations) on
 * the channel the patient wrote on. Regulators require these even right after an opt-out, so no messaging
 * consent is checked — only that we hold the patient's verified number. On WhatsApp it is free text, which
 * the window allows since the patient has just written; outside the window it is not sent. Once per job
 * (`idempotencyKey`, the job's id): a retried job finds its message stored and sends nothing.
 */
export async function sendServiceReply(
  options: ServiceReplyPayload & { database: Database; now: Date; adapters: ChannelAdapters; idempotencyKey: string },
): Promise<SendOutcome> {
  const { database, now } = options;
  const contact = await findPatientContact(database, options.patientId);
  if (contact === null) throw new AppError('not_found', `patientId: no patient ${options.patientId}.`);
  if (contact.phoneNumber === null) return { outcome: 'not-sent', reason: 'no-number' };
  if (options.channel === 'whatsapp') {
    const lastInboundAt = await lastInboundWhatsAppAt(database, options.patientId, now);
    const form = decideWhatsAppForm({ now: now.getTime(), lastInboundAt, template: null, safetyMarginMs: 0 });
    if (form.form !== 'free-form') return { outcome: 'not-sent', reason: 'whatsapp-window-closed' };
  }
  const claim = await claimOutboundMessage(database, {
    patientId: options.patientId,
    channel: options.channel,
    direction: 'outbound',
    category: 'service',
    framing: options.kind,
    body: options.body,
    sentAt: now,
    status: 'sending',
    source: outboundMessageSource,
    sourceRecordId: `service-reply:${options.idempotencyKey}`,
  });
  if (!claim.claimed) return { outcome: 'skipped', reason: 'already-sent' };
  const to = e164(contact.phoneNumber);
  const replyTo =
    options.channel === 'whatsapp' && options.replyToMessageId !== undefined ? await inboundProviderId(database, options) : null;
  const result =
    options.channel === 'whatsapp'
      ? await deliverClaimedMessage({
          database,
          messageId: claim.id,
          adapter: options.adapters.whatsapp,
          message: { to, channel: 'whatsapp', content: { kind: 'text', body: options.body, ...(replyTo === null ? {} : { replyTo }) } },
          now,
        })
      : await deliverClaimedMessage({
          database,
          messageId: claim.id,
          adapter: options.adapters.sms,
          message: { to, channel: 'sms', body: options.body },
          now,
        });
  if (!result.ok && result.error.uncertain) return { outcome: 'not-sent', reason: `${result.error.reason}-uncertain` };
  if (!result.ok) throw result.error;
  return { outcome: 'sent', channel: options.channel, messageId: result.messageId, form: options.channel === 'sms' ? 'sms' : 'text' };
}

/** The provider id of the patient's own inbound message being answered (quoted on WhatsApp); null if not theirs. */
async function inboundProviderId(database: Database, options: { patientId: string; replyToMessageId?: string }): Promise<string | null> {
  if (options.replyToMessageId === undefined) return null;
  const [row] = await database
    .select({ providerMessageId: messages.providerMessageId })
    .from(messages)
    .where(
      and(
        eq(messages.id, options.replyToMessageId),
        eq(messages.patientId, options.patientId),
        eq(messages.channel, 'whatsapp'),
        eq(messages.direction, 'inbound'),
      ),
    );
  return row?.providerMessageId ?? null;
}
