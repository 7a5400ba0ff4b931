import 'server-only';
/**
 * Shared by the survey-by-message use cases (docs/decisions/051): a response with its definition, a chunk's
 * questions, and the survey's message in each channel's form.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients, surveyDefinitions, surveyResponses } from '@/db/schema';
import { renderSurveySms, renderSurveyWhatsApp, type SurveyDefinition, type SurveyLanguage, type SurveyQuestion } from '@/engine/surveys';
import type { FreeFormWhatsApp } from '@/features/message-sending';

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
    })
    .from(surveyResponses)
    .innerJoin(surveyDefinitions, eq(surveyDefinitions.id, surveyResponses.definitionId))
    .innerJoin(patients, eq(patients.id, surveyResponses.patientId))
    .where(eq(surveyResponses.id, responseId));
  if (row === undefined) return null;
  const sex: 'female' | 'male' | null = row.sex === 'female' || row.sex === 'male' ? row.sex : null;
  return { ...row, sex };
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

/** The WhatsApp form (reply buttons, a list, or numbered text) with the text stored for it, and the SMS. */
export function surveyMessageForms(questions: readonly SurveyQuestion[], reference: string) {
  const rendered = renderSurveyWhatsApp(questions, reference, surveyMessageLanguage);
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
  return { whatsApp: { content, body }, sms: renderSurveySms(questions, surveyMessageLanguage) };
}
