import 'server-only';
/**
 * Shared by the survey-by-message use cases (docs/decisions/051): a response with its definition, a chunk's
 * questions, and the survey's message in each channel's form.
 */
import { and, desc, eq, gt, gte, inArray, lte, notInArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { REPLY_WINDOW_MS } from '@/db/queries/message-replies';
import { doseEvents, messages, patients, surveyDefinitions, surveyResponses } from '@/db/schema';
import { nextAllowedSendTime } from '@/engine/messaging';
import { messageCategories } from '@/engine/policy/message-arms';
import {
  renderSurveySms,
  renderSurveyWhatsApp,
  type SurveyDefinition,
  type SurveyLanguage,
  type SurveyQuestion,
  recordAnsweredIds,
  surveyReminderLine,
} from '@/engine/surveys';
import type { FreeFormWhatsApp } from '@/features/message-sending';
import { replyDoseSources } from '@/lib/domain/dose-statuses';

export async function loadResponse(database: Database, responseId: string) {
  const [row] = await database
    .select({
      id: surveyResponses.id,
      patientId: surveyResponses.patientId,
      surveyKey: surveyResponses.surveyKey,
      answers: surveyResponses.answers,
      askedOrder: surveyResponses.askedOrder,
      completedAt: surveyResponses.completedAt,
      definition: surveyDefinitions.definition,
      sex: patients.sex,
      timezone: patients.timezone,
    })
    .from(surveyResponses)
    .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId))
    .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
    .where(eq(surveyResponses.id, responseId));
  if (row === undefined) return null;
  const sex: 'female' | 'male' | null = row.sex === 'female' || row.sex === 'male' ? row.sex : null;
  // The answers the patient's record gave (decision 068): not questions asked.
  return { ...row, sex, fromRecord: recordAnsweredIds(row.definition, row.answers, row.askedOrder) };
}

/** A chunk's questions as the definition it was asked from holds them (an id it no longer has is dropped). */
export function questionsOf(definition: SurveyDefinition, ids: readonly string[]): SurveyQuestion[] {
  return ids.flatMap((id) => definition.questions.filter((question) => question.id === id));
}

/**
 * The questions were written in English (decision 041), so the instructions around them are too, rather than
 * a Spanish line around an English question.
 */
export const surveyMessageLanguage: SurveyLanguage = 'en';

/**
 * The WhatsApp form (reply buttons, a list, or numbered text) with the text stored for it, and the SMS; `reminder`:
 * sent once more after no answer, with a line saying so above the questions (decision 063).
 */
export function surveyMessageForms(questions: readonly SurveyQuestion[], reference: string, options: { reminder?: boolean } = {}) {
  const rendered = renderSurveyWhatsApp(questions, reference, surveyMessageLanguage);
  if (options.reminder === true) rendered.body = `${surveyReminderLine(surveyMessageLanguage)}\n\n${rendered.body}`;
  let content: FreeFormWhatsApp;
  let body: string;
  if (rendered.kind === 'buttons') {
    content = { kind: 'interactive-buttons', body: rendered.body, buttons: rendered.buttons };
    body = `${rendered.body}\n${rendered.buttons.map((button) => `[${button.title}]`).join(' ')}`;
  } else if (rendered.kind === 'list') {
    content = { kind: 'interactive-list', body: rendered.body, buttonText: rendered.buttonText, rows: rendered.rows };
    body = `${rendered.body}\n${rendered.rows.map((row) => `• ${row.title}`).join('\n')}`;
  } else {
    content = { kind: 'text', body: rendered.body };
    body = rendered.body;
  }
  const sms = renderSurveySms(questions, surveyMessageLanguage);
  return {
    whatsApp: { content, body },
    sms: options.reminder === true ? `${surveyReminderLine(surveyMessageLanguage)}\n${sms}` : sms,
  };
}

/** Outbound messages of the daily loop: every one ends with the dose answers ("1 = taken…", decision 020). */
const doseMessageCategories: readonly string[] = messageCategories;

/**
 * The patient's latest dose message on the channel in the reply window before `at` that still awaits its answer:
 * no reply after it was recorded as a dose (a "not yet" leaves it awaiting). Null when there is none. A survey
 * message and such a dose message both awaiting is what makes a bare "1" ambiguous by SMS (decision 063).
 */
export async function findAwaitingDoseMessage(
  database: Database,
  options: { patientId: string; channel: 'whatsapp' | 'sms'; at: Date },
): Promise<{ id: string; sentAt: Date } | null> {
  const { patientId, channel, at } = options;
  const [dose] = await database
    .select({ id: messages.id, sentAt: messages.sentAt })
    .from(messages)
    .where(
      and(
        eq(messages.patientId, patientId),
        eq(messages.channel, channel),
        eq(messages.direction, 'outbound'),
        inArray(messages.category, [...doseMessageCategories]),
        notInArray(messages.status, ['sending', 'failed', 'undelivered']),
        gte(messages.sentAt, new Date(at.getTime() - REPLY_WINDOW_MS)),
        lte(messages.sentAt, at),
      ),
    )
    .orderBy(desc(messages.sentAt))
    .limit(1);
  if (dose === undefined) return null;
  const [answered] = await database
    .select({ id: doseEvents.id })
    .from(doseEvents)
    .innerJoin(
      messages,
      and(
        eq(messages.patientId, patientId),
        eq(messages.channel, channel),
        eq(messages.direction, 'inbound'),
        eq(messages.providerMessageId, doseEvents.sourceRecordId),
      ),
    )
    .where(
      and(
        eq(doseEvents.patientId, patientId),
        eq(doseEvents.source, replyDoseSources[channel]),
        gt(messages.sentAt, dose.sentAt),
        lte(messages.sentAt, at),
      ),
    )
    .limit(1);
  return answered === undefined ? dose : null;
}

/** The end of the patient's quiet hours (21:00–08:00 their time, as reminders), or `now` outside them. */
export function quietHoursEnd(now: Date, timeZone: string | null): Date {
  try {
    return new Date(nextAllowedSendTime(now.getTime(), timeZone ?? 'UTC'));
  } catch {
    // A zone Intl does not know: UTC's quiet hours rather than none.
    return new Date(nextAllowedSendTime(now.getTime(), 'UTC'));
  }
}
