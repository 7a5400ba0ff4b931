/**
 * The send path's job kinds, their payloads and the shapes it exchanges with other features (browser-safe).
 */
import { z } from '@/lib/zod';
import type { StoredTemplate } from '@/features/message-templates';

export const messageSendPayloadSchema = z.object({ decisionId: z.uuid('decisionId must be a UUID') });
export const serviceReplyPayloadSchema = z.object({
  patientId: z.uuid('patientId must be a UUID'),
  channel: z.enum(['whatsapp', 'sms']),
  body: z.string().trim().min(1, 'body is empty').max(1600, 'body is longer than 1600 characters'),
  replyToMessageId: z.uuid('replyToMessageId must be a UUID').optional(),
  kind: z.enum(['help', 'stop-confirmation', 'start-confirmation']),
});
export const outboundMessageFailedPayloadSchema = z.object({ messageId: z.uuid('messageId must be a UUID') });

export type ServiceReplyPayload = z.infer<typeof serviceReplyPayloadSchema>;

/** A template as stored: the current version of one template id and language, with what WhatsApp knows of it. */
export type ResolvedTemplate = StoredTemplate;

/** What a send job did, as its result records it (no number, no text). */
export type SendOutcome =
  | {
      outcome: 'sent';
      channel: 'whatsapp' | 'sms';
      messageId: string;
      form: 'template' | 'interactive-buttons' | 'interactive-list' | 'text' | 'sms';
      fallbackFrom?: string;
    }
  | { outcome: 'not-sent'; reason: string }
  | { outcome: 'skipped'; reason: string };
