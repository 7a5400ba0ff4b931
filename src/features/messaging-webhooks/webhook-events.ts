/**
 * Provider payloads turned into the events we apply, each with the key that makes it apply once:
 * WhatsApp wamid + status, Twilio MessageSid + status, or the inbound message's id. Pure: the engine
 * reads each inbound message here (keyword first, then an answer about a dose).
 */
import { interpretInbound, type InboundReply } from '@/engine/messaging';
import type { Channel } from '@/lib/domain/channels';
import type { InboundReading, MessageStatusEntry } from '@/lib/domain/message-records';
import type { WhatsAppMessage, WhatsAppStatus } from './schemas';

export type WebhookProvider = 'whatsapp' | 'twilio';

export type StatusEvent = {
  kind: 'status';
  provider: WebhookProvider;
  channel: Channel;
  eventKey: string;
  providerMessageId: string;
  status: string;
  at: Date;
  errors: NonNullable<MessageStatusEntry['errors']>;
};

export type InboundEvent = {
  kind: 'inbound';
  provider: WebhookProvider;
  channel: Channel;
  eventKey: string;
  providerMessageId: string;
  /** The sender's number, digits only (WhatsApp wa_id, Twilio From without "+" or "whatsapp:"). */
  sender: string;
  at: Date;
  /** What the patient wrote, the button title, the emoji, or "media received". */
  body: string;
  replyToProviderMessageId: string | null;
  reading: InboundReading;
};

export type WebhookEvent = StatusEvent | InboundEvent;

/** WhatsApp statuses we record; others ("deleted", "warning") are acknowledged and ignored. */
const whatsAppStatuses = new Set(['sent', 'delivered', 'read', 'failed']);
/** Message types that carry media or an attachment: recorded as "media received", never read as an answer. */
const mediaTypes = new Set(['image', 'audio', 'voice', 'video', 'document', 'sticker', 'location', 'contacts']);

export const mediaReceivedBody = 'media received';

export function digitsOf(address: string): string {
  return address.replace(/\D/g, '');
}

function readingOf(content: InboundReply): InboundReading {
  // No consent state here: YES/SÍ read as a dose answer; the consent ledger re-reads keywords for opted-out patients.
  return { content, interpretation: interpretInbound(content) };
}

/** A WhatsApp status as an event, or null when it is one we do not act on. */
export function whatsAppStatusEvent(status: WhatsAppStatus): StatusEvent | null {
  if (!whatsAppStatuses.has(status.status)) return null;
  return {
    kind: 'status',
    provider: 'whatsapp',
    channel: 'whatsapp',
    eventKey: `whatsapp:status:${status.id}:${status.status}`,
    providerMessageId: status.id,
    status: status.status,
    at: new Date(Number(status.timestamp) * 1000),
    errors: (status.errors ?? []).map((error) => ({
      code: String(error.code),
      ...(error.title === undefined ? {} : { title: error.title }),
    })),
  };
}

/** A WhatsApp inbound message as an event, or null for kinds we do not act on (system, unsupported, edits, a removed reaction). */
export function whatsAppInboundEvent(message: WhatsAppMessage): InboundEvent | null {
  const base = {
    kind: 'inbound' as const,
    provider: 'whatsapp' as const,
    channel: 'whatsapp' as const,
    eventKey: `whatsapp:message:${message.id}`,
    providerMessageId: message.id,
    sender: digitsOf(message.from),
    at: new Date(Number(message.timestamp) * 1000),
    replyToProviderMessageId: message.context?.id ?? null,
  };
  if (message.type === 'text' && message.text !== undefined) {
    return { ...base, body: message.text.body, reading: readingOf({ kind: 'text', text: message.text.body }) };
  }
  if (message.type === 'button' && message.button !== undefined) {
    const { payload, text } = message.button;
    return { ...base, body: text, reading: readingOf({ kind: 'button', payload: payload ?? text, title: text }) };
  }
  const choice = message.interactive?.button_reply ?? message.interactive?.list_reply;
  if (message.type === 'interactive' && choice !== undefined) {
    return { ...base, body: choice.title, reading: readingOf({ kind: 'button', payload: choice.id, title: choice.title }) };
  }
  if (message.type === 'reaction' && message.reaction?.emoji) {
    return {
      ...base,
      body: message.reaction.emoji,
      replyToProviderMessageId: message.reaction.message_id,
      reading: readingOf({ kind: 'reaction', emoji: message.reaction.emoji }),
    };
  }
  if (mediaTypes.has(message.type)) {
    return { ...base, body: mediaReceivedBody, reading: { content: { kind: 'media', mediaType: message.type }, interpretation: null } };
  }
  return null;
}

/** Twilio's channel from the address: "whatsapp:+1…" for WhatsApp through Twilio, else SMS. */
function twilioChannelOf(address: string): Channel {
  return address.startsWith('whatsapp:') ? 'whatsapp' : 'sms';
}

export function twilioInboundEvent(input: { messageSid: string; from: string; body: string; numMedia: number; at: Date }): InboundEvent {
  const base = {
    kind: 'inbound' as const,
    provider: 'twilio' as const,
    channel: twilioChannelOf(input.from),
    eventKey: `twilio:message:${input.messageSid}`,
    providerMessageId: input.messageSid,
    sender: digitsOf(input.from),
    at: input.at,
    replyToProviderMessageId: null,
  };
  if (input.body.trim() === '' && input.numMedia > 0) {
    return { ...base, body: mediaReceivedBody, reading: { content: { kind: 'media', mediaType: 'mms' }, interpretation: null } };
  }
  return { ...base, body: input.body, reading: readingOf({ kind: 'text', text: input.body }) };
}

/** A Twilio status callback as an event (every MessageStatus is recorded: queued … delivered, undelivered, failed, read). */
export function twilioStatusEvent(input: {
  messageSid: string;
  status: string;
  errorCode: string | undefined;
  to: string;
  at: Date;
}): StatusEvent {
  return {
    kind: 'status',
    provider: 'twilio',
    channel: twilioChannelOf(input.to),
    eventKey: `twilio:status:${input.messageSid}:${input.status}`,
    providerMessageId: input.messageSid,
    status: input.status,
    at: input.at,
    errors: input.errorCode === undefined || input.errorCode === '' ? [] : [{ code: input.errorCode }],
  };
}
