/**
 * What a finished (or stopped) response means: the instrument scores, each answer's meaning, the persona
 * posterior, and a flat summary (one category per topic) that the cohort distribution counts in SQL.
 */
import { personas } from '@/engine/simulation/personas';
import { posteriorFromAnswers, topPersona } from './inference';
import { type AuditCScore, type IpaqScore, scoreAuditC, scoreIpaq } from './scoring';
import type { ChoiceQuestion, SurveyAnswers, SurveyDefinition } from './types';

export type AnswerMeaning = {
  questionId: string;
  topic: string;
  question: string;
  answer: string;
  meaning: string | null;
  /** Taken from the patient's record, not asked (decision 068). */
  fromRecord?: true;
};

export type SurveyResult = {
  ipaq: IpaqScore | null;
  auditC: AuditCScore | null;
  answers: AnswerMeaning[];
  posterior: { persona: string; probability: number }[];
  topPersona: { persona: string; probability: number };
  /** One category per measure, e.g. { 'ipaq': 'moderate', 'audit-c': 'negative', 'smoking': 'never' }. */
  summary: Record<string, string>;
};

function choiceScore(definition: SurveyDefinition, answers: SurveyAnswers, id: string): number | null {
  const question = definition.questions.find(
    (candidate): candidate is ChoiceQuestion => candidate.id === id && candidate.kind === 'choice',
  );
  const option = question?.options.find((candidate) => candidate.value === answers[id]);
  return option?.score ?? null;
}

function numberAnswer(answers: SurveyAnswers, id: string): number {
  const value = answers[id];
  return typeof value === 'number' ? value : 0;
}

export function summariseResponse(
  definition: SurveyDefinition,
  answers: SurveyAnswers,
  sex: 'female' | 'male' | null,
  /** Ids of the answers the patient's record gave (`recordAnsweredIds`): marked so the patient sees they were not asked. */
  fromRecord: readonly string[] = [],
): SurveyResult {
  const summary: Record<string, string> = {};
  const meanings: AnswerMeaning[] = [];
  for (const question of definition.questions) {
    const answer = answers[question.id];
    if (answer === undefined) continue;
    if (question.kind === 'number') {
      meanings.push({
        questionId: question.id,
        topic: question.topic,
        question: question.text,
        answer: `${answer} ${question.unit}`,
        meaning: null,
      });
      continue;
    }
    const option = question.options.find((candidate) => candidate.value === answer);
    if (option === undefined) continue;
    meanings.push({
      questionId: question.id,
      topic: question.topic,
      question: question.text,
      answer: option.label,
      meaning: option.meaning ?? null,
      ...(fromRecord.includes(question.id) ? { fromRecord: true as const } : {}),
    });
    // Single-item measures are summarised by their answer; barriers by whether they are one at all.
    if (question.topic.startsWith('barrier:')) summary[question.topic] = option.value === 'never' ? 'no' : 'yes';
    else if (question.topic !== 'ipaq' && question.topic !== 'audit-c') summary[question.id] = option.value;
  }

  const ipaqDays = ['ipaq-vigorous-days', 'ipaq-moderate-days', 'ipaq-walking-days'].map((id) => choiceScore(definition, answers, id));
  const ipaq = ipaqDays.every((days) => days !== null)
    ? scoreIpaq({
        vigorousDays: ipaqDays[0]!,
        vigorousMinutes: numberAnswer(answers, 'ipaq-vigorous-minutes'),
        moderateDays: ipaqDays[1]!,
        moderateMinutes: numberAnswer(answers, 'ipaq-moderate-minutes'),
        walkingDays: ipaqDays[2]!,
        walkingMinutes: numberAnswer(answers, 'ipaq-walking-minutes'),
      })
    : null;
  if (ipaq !== null) summary.ipaq = ipaq.valid ? ipaq.category : 'excluded';

  const auditItems = ['audit-c-frequency', 'audit-c-quantity', 'audit-c-binge'].map((id) => choiceScore(definition, answers, id));
  const auditC = auditItems.every((item) => item !== null) ? scoreAuditC(auditItems as [number, number, number], sex) : null;
  if (auditC !== null) summary['audit-c'] = auditC.positive ? 'positive' : 'negative';

  const posterior = posteriorFromAnswers(definition, answers);
  const top = topPersona(posterior);
  if (definition.order === 'adaptive') summary.persona = top.persona;
  return {
    ipaq,
    auditC,
    answers: meanings,
    posterior: personas.map((persona, index) => ({ persona, probability: posterior[index]! })),
    topPersona: top,
    summary,
  };
}
