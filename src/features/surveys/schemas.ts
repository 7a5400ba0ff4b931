import { z } from '@/lib/zod';
import { personas } from '@/engine/simulation/personas';
import { patientRecordFields } from '@/engine/surveys/types';

import { surveyKeys } from './survey-keys';

export { type SurveyKey, surveyKeys } from './survey-keys';

const identifier = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'use lower-case letters, digits and hyphens');

const likelihoodsSchema = z.object(
  Object.fromEntries(personas.map((persona) => [persona, z.number().min(0).max(1)])) as Record<(typeof personas)[number], z.ZodNumber>,
);

const choiceOptionSchema = z.object({
  value: identifier,
  label: z.string().trim().min(1).max(200),
  score: z.number().int().min(0).max(100).optional(),
  meaning: z.string().trim().min(1).max(400).optional(),
  likelihoods: likelihoodsSchema,
});

const questionSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('choice'),
    id: identifier,
    text: z.string().trim().min(1).max(400),
    help: z.string().trim().min(1).max(400).optional(),
    topic: z.string().trim().min(1).max(60),
    options: z.array(choiceOptionSchema).min(2).max(12),
    /** Answered from the patient's record where it holds this field, and then not asked (docs/decisions/068). */
    recordField: z.enum(patientRecordFields).optional(),
  }),
  z.object({
    kind: z.literal('number'),
    id: identifier,
    text: z.string().trim().min(1).max(400),
    help: z.string().trim().min(1).max(400).optional(),
    topic: z.string().trim().min(1).max(60),
    unit: z.string().trim().min(1).max(40),
    min: z.number().int(),
    max: z.number().int(),
    askedWhenPositive: identifier.optional(),
  }),
]);

/** A survey definition as an admin submits it (a JSON document); errors name the field by its path. */
export const surveyDefinitionSchema = z.object({
  key: z.enum(surveyKeys),
  title: z.string().trim().min(1).max(120),
  description: z.string().trim().min(1).max(600),
  order: z.enum(['fixed', 'adaptive']),
  questions: z.array(questionSchema).min(1).max(40),
});

export const saveSurveyDefinitionInputSchema = z.object({
  surveyKey: z.enum(surveyKeys),
  /** The definition as JSON text (the editor is a text area). */
  definitionJson: z.string().min(2).max(100_000),
  changeNote: z.string().trim().min(1, 'Say what changed').max(400),
});

export const startSurveyInputSchema = z.object({
  surveyKey: z.enum(surveyKeys),
  /** Start a new response even when one is finished (taking the survey again). */
  restart: z.boolean().optional(),
});

export const answerSurveyInputSchema = z.object({
  responseId: z.uuid(),
  questionId: identifier,
  answer: z.union([z.string().min(1).max(60), z.number().finite()]),
});

/** A clinician or admin sends a patient a survey by message (docs/decisions/051). */
export const offerSurveyByMessageInputSchema = z.object({
  patientId: z.guid({ error: 'patientId must be a patient id' }),
  surveyKey: z.enum(surveyKeys, { error: `surveyKey must be one of ${surveyKeys.join(', ')}` }),
});

/** The 'survey-message-send' job: the response's next questions, or the clarification of one of its messages. */
export const surveyMessageJobPayloadSchema = z.object({
  responseId: z.guid({ error: 'responseId must be a survey response id' }),
  clarifyChunkId: z.guid({ error: 'clarifyChunkId must be a survey message id' }).optional(),
  /** The patient's reply this message answers: within minutes of it, quiet hours do not hold it (decision 063). */
  replyId: z.guid({ error: 'replyId must be a message id' }).optional(),
  /** The one automatic reminder: this unanswered survey message is sent again (decision 063). */
  remindChunkId: z.guid({ error: 'remindChunkId must be a survey message id' }).optional(),
});

export type SurveyMessageSendOutcome =
  | { outcome: 'sent'; chunkId: string; channel: 'whatsapp' | 'sms'; messageId: string; questions: number; form: string }
  | { outcome: 'not-sent'; chunkId: string | null; reason: string }
  | { outcome: 'skipped'; reason: 'completed' | 'awaiting-answer' | 'nothing-to-ask' | 'not-awaiting' | 'already-sent' }
  /** In the patient's quiet hours and not answering their reply of minutes ago: queued again for `until` (063). */
  | { outcome: 'deferred'; reason: 'quiet-hours'; until: string };

/** What a reply did to the survey message it answered. */
export type SurveyReplyOutcome =
  | { kind: 'survey'; chunkId: string; outcome: 'answered' | 'completed' | 'clarification' | 'held' | 'already-handled' }
  /** A tap on a survey invitation (decision 056): started, declined ("Not now"), or on one no longer awaiting. */
  | { kind: 'survey'; chunkId: string; outcome: 'started' | 'declined' }
  | { kind: 'survey'; chunkId: string | null; outcome: 'invitation-closed' };

export type OfferSurveyByMessageResult = {
  responseId: string;
  /** queued: its next questions will be sent; awaiting-answer: a message of it already waits for the patient. */
  status: 'queued' | 'awaiting-answer';
  /** ISO 8601: when the first questions may go (now, or the end of the patient's quiet hours). */
  sendsAt: string;
  /** ISO 8601: when the patient answered "Not now" to this survey's last invitation (decision 056); null otherwise. */
  declinedAt: string | null;
};

/** A survey sent by message to one patient, as their care team sees it on the Patient Profile (decision 063). */
export type SurveyMessageStatus = {
  responseId: string;
  surveyKey: string;
  completedAt: string | null;
  /** The survey's latest message. */
  last: {
    kind: 'questions' | 'invitation';
    channel: 'whatsapp' | 'sms';
    status: string;
    statusReason: string | null;
    questions: number;
    /** ISO 8601: when it was claimed for sending. */
    at: string;
  };
  /** ISO 8601: when the one automatic reminder went (its message gave way to it); null when none did. */
  remindedAt: string | null;
  /** ISO 8601: when the one reminder goes if the latest message stays unanswered; null when none will. */
  reminderDueAt: string | null;
};
