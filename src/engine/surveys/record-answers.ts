/**
 * Answers a patient's record gives (docs/decisions/068): a question that names a record field (`recordField`) is
 * answered from the record when the response starts, and not asked — the care team already knows the patient's age
 * band and how they want to be contacted, so asking again costs the patient a question and adds the 15% of careless
 * answers a survey has. Those answers are stored with the others but never in the order asked, which is how the
 * engine tells them apart. Pure.
 */
import type { ChoiceQuestion, PatientRecordFacts, SurveyAnswers, SurveyDefinition } from './types';

/** The option a record value names: the value itself, or the identifier form of an age band ("75+" is "75-plus"). */
function optionForRecordValue(question: ChoiceQuestion, value: string): string | null {
  const identifier = value.replace('+', '-plus');
  return question.options.find((option) => option.value === value || option.value === identifier)?.value ?? null;
}

/** The answers `record` gives to the definition's questions that name a record field; a value no option names is left out. */
export function answersFromRecord(definition: SurveyDefinition, record: PatientRecordFacts): SurveyAnswers {
  const answers: Record<string, string> = {};
  for (const question of definition.questions) {
    if (question.kind !== 'choice' || question.recordField === undefined) continue;
    const value = record[question.recordField];
    if (value === null || value === undefined) continue;
    const option = optionForRecordValue(question, value);
    if (option !== null) answers[question.id] = option;
  }
  return answers;
}

/** The ids of the answers the record gave: answers to questions that name a record field and were never asked. */
export function recordAnsweredIds(definition: SurveyDefinition, answers: SurveyAnswers, askedOrder: readonly string[]): string[] {
  const asked = new Set(askedOrder);
  return definition.questions
    .filter((question) => question.kind === 'choice' && question.recordField !== undefined)
    .map((question) => question.id)
    .filter((id) => answers[id] !== undefined && !asked.has(id));
}
