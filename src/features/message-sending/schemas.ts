/**
 * The send path's job kinds, their payloads and the shapes it exchanges with other features (browser-safe).
 */
import { z } from 'zod';
import type { TemplateApprovalStatus } from '@/engine/messaging';
import { messageSendJobKind, outboundMessageFailedJobKind, serviceReplyJobKind } from '@/lib/messaging-job-kinds';

export { messageSendJobKind, outboundMessageFailedJobKind, serviceReplyJobKind };

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

/**
 * A template as stored (the message-templates feature's StoredTemplate): the current version of one template
 * id and language, with what WhatsApp knows of it.
 */
export type ResolvedTemplate = {
  templateId: string;
  language: string;
  version: number;
  body: string;
  whatsApp: { name: string; language: string; category: string; approval: TemplateApprovalStatus };
};

/** What a send job did, as its result records it (no number, no text). */
export type SendOutcome =
  | {
      outcome: 'sent';
      channel: 'whatsapp' | 'sms';
      messageId: string;
      form: 'template' | 'interactive-buttons' | 'text' | 'sms';
      fallbackFrom?: string;
    }
  | { outcome: 'not-sent'; reason: string }
  | { outcome: 'skipped'; reason: string };
