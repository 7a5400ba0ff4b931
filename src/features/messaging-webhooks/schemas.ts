/**
 * What the webhook providers send, as far as we act on it. Tolerant by design: fields we do not model are
 * dropped, not refused, because WhatsApp and Twilio add fields without notice and a refused webhook is retried.
 */
import { z } from '@/lib/zod';

/** Largest webhook body read; a real one is a few KB (WhatsApp batches at most a few hundred events). */
export const maximumWebhookBodyBytes = 256 * 1024;

const providerId = z.string().trim().min(1).max(200);
const unixSeconds = z.string().regex(/^\d{1,12}$/, 'must be a Unix time in seconds');
const reply = z.object({ id: z.string().max(1000), title: z.string().max(1000) });

export const whatsAppMessageSchema = z.object({
  from: z.string().max(40),
  id: providerId,
  timestamp: unixSeconds,
  type: z.string().max(40),
  context: z.object({ id: providerId.optional() }).optional(),
  text: z.object({ body: z.string().max(10_000) }).optional(),
  button: z.object({ payload: z.string().max(1000).optional(), text: z.string().max(1000) }).optional(),
  interactive: z.object({ type: z.string(), button_reply: reply.optional(), list_reply: reply.optional() }).optional(),
  reaction: z.object({ message_id: providerId, emoji: z.string().max(40).optional() }).optional(),
});
export type WhatsAppMessage = z.infer<typeof whatsAppMessageSchema>;

export const whatsAppStatusSchema = z.object({
  id: providerId,
  status: z.string().max(40),
  timestamp: unixSeconds,
  errors: z.array(z.object({ code: z.number().int(), title: z.string().max(500).optional() })).optional(),
});
export type WhatsAppStatus = z.infer<typeof whatsAppStatusSchema>;

/** The value of a change with field "messages": inbound messages and statuses of ours. */
export const whatsAppMessagesValueSchema = z.object({
  messages: z.array(whatsAppMessageSchema).optional(),
  statuses: z.array(whatsAppStatusSchema).optional(),
});

/** The envelope; a change's value is read only for the fields we act on (calls, account, template updates … are not). */
export const whatsAppEnvelopeSchema = z.object({
  object: z.string(),
  entry: z.array(z.object({ changes: z.array(z.object({ field: z.string(), value: z.unknown() })).default([]) })).default([]),
});

export const twilioInboundSchema = z.object({
  MessageSid: providerId,
  From: z.string().min(1).max(100),
  Body: z.string().max(10_000).default(''),
  NumMedia: z.coerce.number().int().min(0).max(100).default(0),
});

export const twilioStatusSchema = z.object({
  MessageSid: providerId,
  MessageStatus: z.string().min(1).max(40),
  ErrorCode: z.string().max(20).optional(),
  /** The recipient; "whatsapp:+…" when the message went by WhatsApp through Twilio. */
  To: z.string().max(100).default(''),
});
