/**
 * The survey invitation (docs/decisions/056): the WhatsApp template that opens a conversation for a survey when
 * the 24-hour customer-service window is closed (free-form questions may not start one). Utility category — it
 * concerns the programme the patient consented to and promotes nothing — with two quick-reply buttons, "Start"
 * and "Not now"; a tap comes back as a button message with the payload we set and opens the window. Its reminder
 * (decision 065) is a second template with the same parameters and quick replies and reminder wording. Pure: the
 * stored library version (and Meta's approval) is the send path's, the I/O the survey feature's.
 */
import { MAX_ADAPTIVE_QUESTIONS, questionsAsked } from './inference';
import { surveyPayloadPrefix } from './message-delivery';
import type { SurveyAnswers, SurveyDefinition } from './types';

/** The quick replies both templates offer: the same actions and payloads, so a tap on either is read alike. */
const invitationButtons = [
  { action: 'start', title: 'Start' },
  { action: 'not-now', title: 'Not now' },
] as const;

/**
 * What is submitted to Meta: name (lower case, digits, underscores), category, the English body with named
 * parameters (surveys are in English, decision 041) and the quick-reply buttons' texts (≤ 25 characters each).
 * The body neither starts nor ends with a parameter (Meta refuses those).
 */
export const surveyInvitationTemplate = {
  // Its id in the stored template library (message_template_versions), beside the reminders' `category.framing.n`.
  id: 'survey.invitation',
  name: 'medaptive_survey_invitation',
  language: 'en',
  category: 'utility',
  body: 'Your care team would like you to answer a short survey, "{{survey}}": at most {{questions}} questions, answered with a tap or a number. Tap Start to begin, or Not now to skip it.',
  parameters: ['survey', 'questions'],
  buttons: invitationButtons,
} as const;

/**
 * The one automatic reminder's template (decision 065): the invitation's parameters and quick replies with
 * reminder wording, submitted to Meta as a template of its own (a reminder re-sending the invitation would read the
 * same twice). The send path falls back to the invitation while this one is not approved.
 */
export const surveyInvitationReminderTemplate = {
  id: 'survey.invitation-reminder',
  name: 'medaptive_survey_invitation_reminder',
  language: 'en',
  category: 'utility',
  body: 'A reminder: your care team would still like you to answer a short survey, "{{survey}}": at most {{questions}} questions, answered with a tap or a number. Tap Start to begin, or Not now to skip it.',
  parameters: ['survey', 'questions'],
  buttons: invitationButtons,
} as const;

export type SurveyInvitationTemplate = typeof surveyInvitationTemplate | typeof surveyInvitationReminderTemplate;

/** Both, in the order the library and the examples page list them. */
export const surveyInvitationTemplates: readonly SurveyInvitationTemplate[] = [surveyInvitationTemplate, surveyInvitationReminderTemplate];

/** The invitation template with this library id (the invitation or its reminder); undefined for any other. */
export function findSurveyInvitationTemplate(templateId: string): SurveyInvitationTemplate | undefined {
  return surveyInvitationTemplates.find((template) => template.id === templateId);
}

export type SurveyInvitationAction = (typeof invitationButtons)[number]['action'];

/** Meta's limit on a template button's text. */
export const maxQuickReplyTitleLength = 25;
/** A survey title longer than this is cut (a parameter must stay one short line). */
const maxTitleLength = 60;

/**
 * `survey:<invitation reference>:start` / `:not-now`: two parts after the prefix where an answer has three, so
 * parseSurveyPayload never reads a tap on an invitation as an answer, nor this one an answer's tap.
 */
export function surveyInvitationPayload(reference: string, action: SurveyInvitationAction): string {
  return `${surveyPayloadPrefix}${reference}:${action}`;
}

export function parseSurveyInvitationPayload(payload: string): { reference: string; action: SurveyInvitationAction } | null {
  if (!payload.startsWith(surveyPayloadPrefix)) return null;
  const parts = payload.slice(surveyPayloadPrefix.length).split(':');
  if (parts.length !== 2 || parts[0] === '') return null;
  const action = invitationButtons.find((button) => button.action === parts[1])?.action;
  return action === undefined ? null : { reference: parts[0]!, action };
}

/**
 * How many questions the invitation promises at most: a fixed survey's unanswered questions (one asked only after
 * a positive answer counts, as it may be asked); an adaptive survey's unanswered choice questions, never past the
 * 5-question limit less those already asked (it often stops sooner, when confident — hence "at most"). Answers the
 * patient's record gave (`fromRecord`, decision 068) are not questions asked.
 */
export function invitationQuestionCount(definition: SurveyDefinition, answers: SurveyAnswers, fromRecord: readonly string[] = []): number {
  const unanswered = definition.questions.filter((question) => answers[question.id] === undefined);
  if (definition.order === 'fixed') return unanswered.length;
  const choices = unanswered.filter((question) => question.kind === 'choice').length;
  return Math.max(0, Math.min(choices, MAX_ADAPTIVE_QUESTIONS - questionsAsked(definition, answers, fromRecord)));
}

/**
 * What is wrong with an invitation body (the invitation's or its reminder's: `template`, the invitation by default)
 * for Meta's review and for our rendering, one line each (for the template editor); empty when it is fine: only
 * {{survey}} and {{questions}}, neither at either end, never side by side, no stray brace, at most 1024 characters.
 */
export function checkSurveyInvitationBody(body: string, template: SurveyInvitationTemplate = surveyInvitationTemplate): string[] {
  const trimmed = body.trim();
  if (trimmed === '') return ['The body is empty.'];
  const problems: string[] = [];
  const pattern = /\{\{\s*([^{}]*?)\s*\}\}/g;
  for (const match of body.matchAll(pattern)) {
    const name = match[1] ?? '';
    if (!(template.parameters as readonly string[]).includes(name))
      problems.push(`Unknown placeholder {{${name}}}: an invitation may use {{survey}} and {{questions}}.`);
  }
  if (/^\{\{/.test(trimmed)) problems.push('The body starts with a placeholder; WhatsApp refuses that.');
  if (/\}\}$/.test(trimmed)) problems.push('The body ends with a placeholder; WhatsApp refuses that.');
  if (/\}\}\s*\{\{/.test(body)) problems.push('Two placeholders are side by side; put words between them.');
  if (/\{|\}/.test(body.replace(pattern, ''))) problems.push('The body has a stray brace.');
  if (body.length > 1024) problems.push('The body is longer than 1024 characters.');
  return problems;
}

export type RenderedSurveyInvitation = {
  /** Meta's named body parameters, in order of first use. */
  parameters: { name: string; text: string }[];
  /** What the patient reads (stored as the message body). */
  text: string;
  /** The quick-reply buttons in the template's order, each with the payload it sends back. */
  buttons: { title: string; payload: string }[];
};

/**
 * The invitation (or, with `template`, its reminder) for one survey. `body` is the stored library version's (the
 * template's own unless edited), so what is stored as sent matches what Meta shows. Throws when the body names a
 * parameter we do not fill.
 */
export function renderSurveyInvitation(options: {
  template?: SurveyInvitationTemplate;
  body?: string;
  surveyTitle: string;
  questionCount: number;
  reference: string;
}): RenderedSurveyInvitation {
  const template = options.template ?? surveyInvitationTemplate;
  const body = options.body ?? template.body;
  // WhatsApp refuses parameters with line breaks, tabs or runs of more than four spaces.
  const title = options.surveyTitle.replace(/\s+/g, ' ').trim();
  const values: Record<string, string> = {
    survey: title.length > maxTitleLength ? `${title.slice(0, maxTitleLength - 1).trimEnd()}…` : title,
    questions: String(options.questionCount),
  };
  const parameters: { name: string; text: string }[] = [];
  for (const match of body.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)) {
    const name = match[1] ?? '';
    const text = values[name];
    if (text === undefined) throw new Error(`The survey invitation's body names {{${name}}}, which it has no value for.`);
    if (!parameters.some((parameter) => parameter.name === name)) parameters.push({ name, text });
  }
  return {
    parameters,
    text: body.replace(/\{\{\s*([^{}]*?)\s*\}\}/g, (_, name: string) => values[name] ?? ''),
    buttons: template.buttons.map(({ action, title: buttonTitle }) => ({
      title: buttonTitle,
      payload: surveyInvitationPayload(options.reference, action),
    })),
  };
}
