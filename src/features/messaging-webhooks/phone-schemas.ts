/**
 * /dev/phone (the local channel's phone, development and tests only): what the page shows and what a tap or
 * a typed reply sends. Browser-safe: the component imports these types.
 */
import { z } from '@/lib/zod';
import { messagingProgrammes } from '@/lib/domain/messaging-programmes';
import { replyActions } from '@/engine/messaging/reply-options';

export type PhoneMessageDto = {
  id: string;
  direction: 'inbound' | 'outbound';
  body: string;
  /** ISO 8601. */
  sentAt: string;
  /** sent, delivered, read, failed, received … */
  status: string;
};

export type PhoneThreadDto = {
  channel: 'whatsapp' | 'sms';
  messages: PhoneMessageDto[];
  /** WhatsApp: the quick-reply buttons of the latest outbound message (tappable); SMS: the reply keywords. */
  replyOptions: { label: string; value: string }[];
  /** The outbound message the buttons answer (WhatsApp), null when there is none. */
  buttonsFor: string | null;
  /**
   * WhatsApp: the reply buttons or list rows the latest outbound message offered when it was interactive (a survey
   * question, decision 051), tapped as a button_reply / list_reply, or the quick replies of a template that names its
   * own (a survey invitation, decision 056), tapped as a `button` message; null otherwise (the dose quick replies apply).
   */
  choices: { kind: 'buttons' | 'list' | 'quick-replies'; options: { id: string; label: string }[] } | null;
};

export type PhonePatientDto = { id: string; pseudonym: string };

/** The daily loop's latest decision for the patient, so the phone can say why no message came. */
export type PhoneDecisionDto = {
  localDate: string;
  status: string;
  reason: string | null;
  templateId: string | null;
  scheduledFor: string | null;
  /** The policy and the version of it that decided (for the learning policy, the stored version of its beliefs). */
  policyName: string;
  policyVersion: string;
};

export type PhoneViewDto = { patient: PhonePatientDto; threads: PhoneThreadDto[]; latestDecision: PhoneDecisionDto | null };

export const phoneReplySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('text'),
    patientId: z.guid({ error: 'patientId must be a patient id' }),
    channel: z.enum(['whatsapp', 'sms'], { error: 'channel must be whatsapp or sms' }),
    text: z.string().trim().min(1, { error: 'text: write a reply first' }).max(1600, { error: 'text is longer than 1,600 characters' }),
  }),
  z.object({
    kind: z.literal('button'),
    patientId: z.guid({ error: 'patientId must be a patient id' }),
    /** The outbound message (our id) whose button was tapped. */
    messageId: z.guid({ error: 'messageId must be a message id' }),
    action: z.enum(replyActions, { error: 'action must be one of the quick replies' }),
  }),
  z.object({
    kind: z.literal('choice'),
    patientId: z.guid({ error: 'patientId must be a patient id' }),
    /** The interactive outbound message (our id) whose reply button or list row was tapped. */
    messageId: z.guid({ error: 'messageId must be a message id' }),
    choiceId: z.string().min(1, { error: 'choiceId is empty' }).max(256, { error: 'choiceId is longer than 256 characters' }),
  }),
]);
export type PhoneReplyInput = z.input<typeof phoneReplySchema>;

export const phonePatientSchema = z.object({ patientId: z.guid({ error: 'patientId must be a patient id' }) });

/** /dev/phone's "New test patient": the language, time zone and messaging programme of the patient it makes. */
export const testPatientSchema = z.object({
  programme: z.enum(messagingProgrammes, { error: `programme must be one of ${messagingProgrammes.join(', ')}` }).default('fixed-daily'),
  language: z.enum(['en', 'es'], { error: 'language must be en or es' }).default('en'),
  timezone: z
    .string()
    .refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { error: 'timezone must be an IANA time zone such as Europe/Madrid' },
    )
    .default('UTC'),
  /** Which channel goes first when both are agreed to (a survey outside the WhatsApp window goes by SMS only for 'sms'). */
  preferredChannel: z.enum(['whatsapp', 'sms'], { error: 'preferredChannel must be whatsapp or sms' }).default('whatsapp'),
});

export const phonePseudonymSchema = z.object({
  pseudonym: z.string({ error: 'pseudonym must be a patient pseudonym' }).trim().min(1, { error: 'pseudonym is empty' }).max(100),
});

export const localOutboundSchema = z.object({
  pseudonym: z.string({ error: 'pseudonym must be a patient pseudonym' }).trim().min(1, { error: 'pseudonym is empty' }).max(100),
  channel: z.enum(['whatsapp', 'sms'], { error: 'channel must be whatsapp or sms' }),
  body: z.string({ error: 'body must be text' }).trim().min(1, { error: 'body is empty' }).max(1600, { error: 'body is too long' }),
});
