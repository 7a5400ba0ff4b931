/**
 * A survey by message (issue 17 item 4, docs/decisions/047): which questions go in the next message (at most 3),
 * how they look on WhatsApp (reply buttons or a list for one choice question, numbered text otherwise) and by
 * SMS (numbered answers), how a reply becomes answers, and what happens to a reply we cannot read (one
 * clarification, then it is kept for a person). Pure; the send path and the webhook do the I/O.
 */
import type { InboundReply } from '@/engine/messaging';
import {
  expectedInformationGain,
  likelihoodMatrix,
  MAX_ADAPTIVE_QUESTIONS,
  MIN_INFORMATION_GAIN,
  nextQuestion,
  posteriorFromAnswers,
  questionsAsked,
} from './inference';
import type { ChoiceQuestion, SurveyAnswers, SurveyDefinition, SurveyQuestion } from './types';

export const MAX_QUESTIONS_PER_MESSAGE = 3;
/** WhatsApp's limits: 3 reply buttons of 20 characters; a list of 10 rows of 24. */
const WHATSAPP_BUTTONS = 3;
const WHATSAPP_BUTTON_TITLE = 20;
const WHATSAPP_LIST_ROWS = 10;
const WHATSAPP_ROW_TITLE = 24;
/** Payloads we issue: `survey:<reference>:<question id>:<answer value>` (ids and values are [a-z0-9-]). */
export const surveyPayloadPrefix = 'survey:';

/**
 * The questions of the next message. A fixed survey sends its next due questions in order, stopping before one
 * whose being asked depends on an answer in the same message (IPAQ minutes after days). An adaptive survey sends
 * the question the engine would ask next and, after it, the unanswered questions with the next largest expected
 * gain at the current posterior — the order cannot adapt inside one message — never past the 5-question limit.
 * Empty when the survey is finished.
 */
export function nextMessageQuestions(
  definition: SurveyDefinition,
  answers: SurveyAnswers,
  /** Ids of the answers the patient's record gave (`recordAnsweredIds`): not questions asked. */
  fromRecord: readonly string[] = [],
): SurveyQuestion[] {
  const first = nextQuestion({ definition, answers, fromRecord });
  if (first.done) return [];
  const chosen: SurveyQuestion[] = [first.question];
  if (definition.order === 'fixed') {
    const pending: Record<string, string | number> = { ...answers };
    for (const question of definition.questions) {
      if (chosen.length >= MAX_QUESTIONS_PER_MESSAGE) break;
      if (pending[question.id] !== undefined || question.id === first.question.id) continue;
      if (definition.questions.indexOf(question) < definition.questions.indexOf(first.question)) continue;
      if (question.kind === 'number' && question.askedWhenPositive !== undefined) {
        // Due only after an answer we do not have yet: the message ends here.
        if (chosen.some((candidate) => candidate.id === question.askedWhenPositive)) break;
        const parent = definition.questions.find((candidate) => candidate.id === question.askedWhenPositive);
        const option = parent?.kind === 'choice' ? parent.options.find((candidate) => candidate.value === answers[parent.id]) : undefined;
        if ((option?.score ?? 0) <= 0) continue;
      }
      chosen.push(question);
    }
    return chosen;
  }
  const room = Math.min(MAX_QUESTIONS_PER_MESSAGE, MAX_ADAPTIVE_QUESTIONS - questionsAsked(definition, answers, fromRecord));
  const posterior = posteriorFromAnswers(definition, answers);
  const others = definition.questions
    .filter(
      (question): question is ChoiceQuestion =>
        question.kind === 'choice' && answers[question.id] === undefined && question.id !== first.question.id,
    )
    .map((question) => ({ question, gain: expectedInformationGain(posterior, likelihoodMatrix(question)) }))
    .filter((entry) => entry.gain > MIN_INFORMATION_GAIN)
    // Stable: equal gains keep the definition's order.
    .sort((left, right) => right.gain - left.gain);
  for (const { question } of others) {
    if (chosen.length >= room) break;
    chosen.push(question);
  }
  return chosen;
}

export type WhatsAppSurveyMessage =
  | { kind: 'buttons'; body: string; buttons: { title: string; payload: string }[] }
  | { kind: 'list'; body: string; buttonText: string; rows: { title: string; description?: string; payload: string }[] }
  | { kind: 'text'; body: string };

export type SurveyLanguage = 'en' | 'es';

const words = {
  en: {
    replyOne: 'Reply with the number of your answer.',
    replyMany: (count: number) =>
      `Reply with one number per question, in order, for example “${Array.from({ length: count }, () => '1').join(' ')}”.`,
    minutes: (unit: string, min: number, max: number) => `Reply with a whole number of ${unit} (${min}–${max}).`,
    choose: 'Choose an answer',
    clarify: 'Sorry, we could not read that reply.',
    clarifyBoth:
      'We could not tell whether your reply answers your medicine reminder or these survey questions. About your medicine, reply with a word: TAKEN, NOT YET or SKIP. About the survey, reply with numbers as below.',
    stop: 'STOP to opt out.',
    reminder: 'A reminder: your care team’s survey is still waiting for your answer.',
  },
  es: {
    replyOne: 'Responda con el número de su respuesta.',
    replyMany: (count: number) =>
      `Responda con un número por pregunta, en orden, por ejemplo «${Array.from({ length: count }, () => '1').join(' ')}».`,
    minutes: (unit: string, min: number, max: number) => `Responda con un número entero de ${unit} (${min}–${max}).`,
    choose: 'Elija una respuesta',
    clarify: 'Lo sentimos, no pudimos leer esa respuesta.',
    clarifyBoth:
      'No pudimos saber si su respuesta es para el recordatorio de su medicación o para estas preguntas. Sobre su medicación, responda con una palabra: TOMADA, AÚN NO u OMITIR. Sobre la encuesta, responda con números como se indica abajo.',
    stop: 'STOP para darse de baja.',
    reminder: 'Un recordatorio: la encuesta de su equipo de atención sigue esperando su respuesta.',
  },
} as const;

/** The line above a survey message sent once more because it went unanswered (decision 063). */
export function surveyReminderLine(language: SurveyLanguage = 'en'): string {
  return words[language].reminder;
}

/** Lower case, no accents, words of letters and digits; whether it asks something (never read as an answer). */
function normaliseReply(raw: string): { text: string; words: string[]; isQuestion: boolean } {
  const words =
    raw
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return { text: words.join(' '), words, isQuestion: /[?¿]/.test(raw) };
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

export function surveyButtonPayload(reference: string, questionId: string, value: string): string {
  return `${surveyPayloadPrefix}${reference}:${questionId}:${value}`;
}

/** Reads a survey payload we issued; null for any other payload. */
export function parseSurveyPayload(payload: string): { reference: string; questionId: string; value: string } | null {
  if (!payload.startsWith(surveyPayloadPrefix)) return null;
  const parts = payload.slice(surveyPayloadPrefix.length).split(':');
  if (parts.length !== 3 || parts.some((part) => part === '')) return null;
  return { reference: parts[0]!, questionId: parts[1]!, value: parts[2]! };
}

/** The questions as numbered text: "1. question" then "   1 = answer" lines; the SMS body and WhatsApp's fallback. */
function numberedText(questions: readonly SurveyQuestion[], language: SurveyLanguage): string {
  const lines: string[] = [];
  questions.forEach((question, index) => {
    lines.push(questions.length === 1 ? question.text : `${index + 1}. ${question.text}`);
    if (question.kind === 'choice') question.options.forEach((option, position) => lines.push(`${position + 1} = ${option.label}`));
    else lines.push(words[language].minutes(question.unit, question.min, question.max));
  });
  const onlyNumbers = questions.length === 1 && questions[0]!.kind === 'number';
  if (!onlyNumbers) lines.push(questions.length === 1 ? words[language].replyOne : words[language].replyMany(questions.length));
  return lines.join('\n');
}

export function renderSurveySms(questions: readonly SurveyQuestion[], language: SurveyLanguage = 'en'): string {
  return `${numberedText(questions, language)}\n${words[language].stop}`;
}

/** One choice question: buttons (≤ 3 answers) or a list (≤ 10); anything else is numbered text, as by SMS. */
export function renderSurveyWhatsApp(
  questions: readonly SurveyQuestion[],
  reference: string,
  language: SurveyLanguage = 'en',
): WhatsAppSurveyMessage {
  const only = questions.length === 1 ? questions[0]! : null;
  if (only !== null && only.kind === 'choice' && only.options.length <= WHATSAPP_BUTTONS) {
    return {
      kind: 'buttons',
      body: only.text,
      buttons: only.options.map((option) => ({
        title: truncate(option.label, WHATSAPP_BUTTON_TITLE),
        payload: surveyButtonPayload(reference, only.id, option.value),
      })),
    };
  }
  if (only !== null && only.kind === 'choice' && only.options.length <= WHATSAPP_LIST_ROWS) {
    return {
      kind: 'list',
      body: only.text,
      buttonText: words[language].choose,
      rows: only.options.map((option) => ({
        title: truncate(option.label, WHATSAPP_ROW_TITLE),
        ...(option.label.length > WHATSAPP_ROW_TITLE ? { description: truncate(option.label, 72) } : {}),
        payload: surveyButtonPayload(reference, only.id, option.value),
      })),
    };
  }
  return { kind: 'text', body: numberedText(questions, language) };
}

export type ParsedSurveyReply = { kind: 'answers'; answers: Record<string, string | number> } | { kind: 'unparseable' };

/**
 * A reply to a survey message as answers to its questions: a button or list tap we issued for this message;
 * one number per question (separated by spaces, commas or new lines: "2 1 3", "2,1,3"); or, for a single
 * choice question, the answer's words ("sometimes"). Anything else — a wrong count, a number out of range, a
 * question — is unparseable: the caller asks once more, then keeps it for a person.
 */
export function parseSurveyReply(options: {
  questions: readonly SurveyQuestion[];
  reference: string;
  reply: InboundReply;
}): ParsedSurveyReply {
  const { questions, reference, reply } = options;
  if (questions.length === 0) return { kind: 'unparseable' };
  if (reply.kind === 'reaction') return { kind: 'unparseable' };
  if (reply.kind === 'button') {
    const payload = parseSurveyPayload(reply.payload);
    const question = questions.find((candidate) => candidate.id === payload?.questionId);
    if (payload === null || payload.reference !== reference || question?.kind !== 'choice') return { kind: 'unparseable' };
    const option = question.options.find((candidate) => candidate.value === payload.value);
    return option === undefined ? { kind: 'unparseable' } : { kind: 'answers', answers: { [question.id]: option.value } };
  }
  const normalised = normaliseReply(reply.text);
  if (normalised.isQuestion) return { kind: 'unparseable' };
  const tokens = normalised.words;
  if (tokens.length === questions.length && tokens.every((token) => /^\d+$/.test(token))) {
    const answers: Record<string, string | number> = {};
    for (const [index, question] of questions.entries()) {
      const value = Number(tokens[index]);
      if (question.kind === 'choice') {
        const option = question.options[value - 1];
        if (option === undefined) return { kind: 'unparseable' };
        answers[question.id] = option.value;
      } else {
        if (!Number.isInteger(value) || value < question.min || value > question.max) return { kind: 'unparseable' };
        answers[question.id] = value;
      }
    }
    return { kind: 'answers', answers };
  }
  const only = questions.length === 1 ? questions[0]! : null;
  if (only?.kind === 'choice') {
    const matches = only.options.filter((option) => normaliseReply(option.label).text === normalised.text);
    if (matches.length === 1) return { kind: 'answers', answers: { [only.id]: matches[0]!.value } };
  }
  return { kind: 'unparseable' };
}

export type UnparseableReplyStep = { kind: 'clarify'; text: string } | { kind: 'hold-for-human' };

/**
 * After a reply we cannot read: the first time, the questions again with how to answer; after that, a person reads
 * it. `doseMessageAwaiting`: a dose message (whose SMS reads "1" as taken) also awaits the patient's answer, so the
 * one clarification names both and says how to answer each — words for the dose, numbers for the survey
 * (decision 063); the survey's numbered format stays.
 */
export function afterUnparseableReply(options: {
  clarificationsSent: number;
  questions: readonly SurveyQuestion[];
  language?: SurveyLanguage;
  doseMessageAwaiting?: boolean;
}): UnparseableReplyStep {
  if (options.clarificationsSent >= 1) return { kind: 'hold-for-human' };
  const language = options.language ?? 'en';
  const opening = options.doseMessageAwaiting === true ? words[language].clarifyBoth : words[language].clarify;
  return { kind: 'clarify', text: `${opening}\n${numberedText(options.questions, language)}` };
}
