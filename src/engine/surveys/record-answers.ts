/**
 * Answers a patient's record gives (docs/decisions/068): a question that names a record field (`recordField`) is
 * answered from the record when the response starts, and not asked — the care team already knows the patient's age
 * band and how they want to be contacted, and the pharmacy how much they get at a time, so asking again costs the
 * patient a question and adds the 15% of careless answers a survey has. Those answers are stored with the others but never in the order asked, which is how the
 * engine tells them apart. Pure.
 */
import { messageChannels } from '@/engine/policy/message-arms';
import { ageBands } from '@/engine/simulation/personas';
import type { PatientRecordFacts, PatientRecordField, SurveyAnswers, SurveyDefinition } from './types';

/** An age band as an answer value: answer values are identifiers, so "75+" is `75-plus`. */
export function ageBandAnswerValue(band: string): string {
  return band.replace('+', '-plus');
}

/** The supply-length answers: about a month (20–45 days) or about three months (75–105 days). */
const supplyAnswerValues = ['month', 'three-months'] as const;

/** The answer value a record value gives; null when it names none (a 7-day supply says neither, so it is asked). */
function recordAnswerValue(field: PatientRecordField, value: string): string | null {
  if (field === 'age-band') return ageBandAnswerValue(value);
  if (field === 'preferred-channel') return value;
  const days = Number(value);
  if (days >= 20 && days <= 45) return supplyAnswerValues[0];
  if (days >= 75 && days <= 105) return supplyAnswerValues[1];
  return null;
}

/** The answers `record` gives to the definition's questions that name a record field; a value no option names is left out. */
export function answersFromRecord(definition: SurveyDefinition, record: PatientRecordFacts): SurveyAnswers {
  const answers: Record<string, string> = {};
  for (const question of definition.questions) {
    if (question.kind !== 'choice' || question.recordField === undefined) continue;
    const value = record[question.recordField];
    if (value === null || value === undefined) continue;
    const answer = recordAnswerValue(question.recordField, value);
    if (question.options.some((option) => option.value === answer)) answers[question.id] = answer!;
  }
  return answers;
}

/** The answer values each record field can give: a question that names the field must offer every one. */
const recordFieldAnswers: Readonly<Record<PatientRecordField, readonly string[]>> = {
  'age-band': ageBands.map(ageBandAnswerValue),
  'preferred-channel': messageChannels,
  'days-supply': supplyAnswerValues,
};

/**
 * What is wrong with the definition's record fields, one line each (for the admin editor): a question that names one
 * must offer every answer the record can give, so that a record value always answers it — otherwise the product
 * would ask it of some patients while survey-evolution counts it as never asked.
 */
export function recordFieldProblems(definition: SurveyDefinition): string[] {
  return definition.questions.flatMap((question) => {
    if (question.kind !== 'choice' || question.recordField === undefined) return [];
    const missing = recordFieldAnswers[question.recordField].filter((value) => !question.options.some((option) => option.value === value));
    return missing.length === 0
      ? []
      : [`questions.${question.id}: answered from the record's ${question.recordField}, it needs the answers ${missing.join(', ')}`];
  });
}

/** The ids of the answers the record gave: answers to questions that name a record field and were never asked. */
export function recordAnsweredIds(definition: SurveyDefinition, answers: SurveyAnswers, askedOrder: readonly string[]): string[] {
  const asked = new Set(askedOrder);
  return definition.questions
    .filter((question) => question.kind === 'choice' && question.recordField !== undefined)
    .map((question) => question.id)
    .filter((id) => answers[id] !== undefined && !asked.has(id));
}
