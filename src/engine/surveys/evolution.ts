/**
 * What the survey-evolution page computes from stored data (docs/decisions/047): what changed between two
 * versions of a definition, and how much each question actually told us about the persona in the answers
 * patients gave — the entropy of the posterior before the answer minus after it, in bits, averaged over the
 * responses that were asked the question. Pure.
 */
import { personas } from '@/engine/simulation/personas';
import { entropy, posteriorFromAnswers, updatePosterior, uniformPrior } from './inference';
import { recordAnsweredIds } from './record-answers';
import type { SurveyAnswers, SurveyDefinition, SurveyQuestion } from './types';

/** One line per change, in words, in the order of the new version's questions (removed ones last). */
export function describeDefinitionChanges(previous: SurveyDefinition, next: SurveyDefinition): string[] {
  const changes: string[] = [];
  if (previous.title !== next.title) changes.push(`Title changed from “${previous.title}” to “${next.title}”.`);
  if (previous.description !== next.description) changes.push('Description reworded.');
  if (previous.order !== next.order) changes.push(`Order changed from ${previous.order} to ${next.order}.`);
  const before = new Map(previous.questions.map((question) => [question.id, question]));
  const after = new Set(next.questions.map((question) => question.id));
  for (const question of next.questions) {
    const old = before.get(question.id);
    if (old === undefined) {
      changes.push(`Question ${question.id} added.`);
      continue;
    }
    changes.push(...questionChanges(old, question));
  }
  for (const question of previous.questions) if (!after.has(question.id)) changes.push(`Question ${question.id} removed.`);
  const kept = next.questions.filter((question) => before.has(question.id)).map((question) => question.id);
  const keptBefore = previous.questions.filter((question) => after.has(question.id)).map((question) => question.id);
  if (kept.join('\u0000') !== keptBefore.join('\u0000')) changes.push('Questions reordered.');
  return changes;
}

function questionChanges(old: SurveyQuestion, question: SurveyQuestion): string[] {
  const changes: string[] = [];
  if (old.text !== question.text) changes.push(`Question ${question.id} reworded.`);
  if (old.kind !== question.kind) return [...changes, `Question ${question.id} changed from ${old.kind} to ${question.kind}.`];
  if (old.kind !== 'choice' || question.kind !== 'choice') {
    if (JSON.stringify(old) !== JSON.stringify(question) && changes.length === 0) changes.push(`Question ${question.id} changed.`);
    return changes;
  }
  if (old.recordField !== question.recordField)
    changes.push(
      question.recordField === undefined
        ? `Question ${question.id} is asked again rather than answered from the patient’s record.`
        : `Question ${question.id} is answered from the patient’s record (${question.recordField}) where it holds it.`,
    );
  const oldValues = old.options.map((option) => option.value);
  const values = question.options.map((option) => option.value);
  if (oldValues.join('\u0000') !== values.join('\u0000')) {
    changes.push(`Question ${question.id}: answers changed from ${oldValues.join(', ')} to ${values.join(', ')}.`);
    return changes;
  }
  if (old.options.some((option, index) => option.label !== question.options[index]!.label))
    changes.push(`Question ${question.id}: answer labels reworded.`);
  const likelihoodsChanged = old.options.some((option, index) =>
    personas.some((persona) => Math.abs(option.likelihoods[persona] - question.options[index]!.likelihoods[persona]) > 1e-9),
  );
  if (likelihoodsChanged) changes.push(`Question ${question.id}: P(answer | persona) changed.`);
  return changes;
}

export type QuestionInformation = {
  questionId: string;
  /** Responses in which the question was answered. */
  answered: number;
  /** Mean bits of persona entropy removed by its answer, where it came in the order it was asked. */
  meanBits: number;
};

/**
 * The bits of persona entropy each asked choice question removed in one response, walking it in the order its
 * questions were asked, from the posterior the record's answers give (docs/decisions/068: those were not asked,
 * so they get no figure; other answers without a place in the order come after). Stored with the response when
 * its answers are saved, so the page sums them in the database instead of reading every response (decision 047
 * addendum). A choice question whose answers carry no persona information (lifestyle items) counts 0 bits.
 */
export function responseInformation(
  definition: SurveyDefinition,
  response: { answers: SurveyAnswers; askedOrder: readonly string[] },
): Record<string, number> {
  const byId = new Map(definition.questions.map((question) => [question.id, question]));
  const fromRecord = recordAnsweredIds(definition, response.answers, response.askedOrder);
  const recordAnswers = Object.fromEntries(fromRecord.map((id) => [id, response.answers[id]!]));
  const order = [
    ...response.askedOrder,
    ...Object.keys(response.answers).filter((id) => !response.askedOrder.includes(id) && !fromRecord.includes(id)),
  ];
  const bits: Record<string, number> = {};
  let posterior: number[] = fromRecord.length === 0 ? uniformPrior() : posteriorFromAnswers(definition, recordAnswers);
  for (const id of new Set(order)) {
    const question = byId.get(id);
    const answer = response.answers[id];
    if (question?.kind !== 'choice' || answer === undefined) continue;
    const option = question.options.find((candidate) => candidate.value === answer);
    if (option === undefined) continue;
    const next = updatePosterior(
      posterior,
      personas.map((persona) => option.likelihoods[persona]),
    );
    bits[id] = entropy(posterior) - entropy(next);
    posterior = next;
  }
  return bits;
}

/** What the database summed from the stored figures of one definition version's responses, per question. */
export type StoredInformationTotal = { questionId: string; answered: number; bits: number };

/**
 * The information each choice question added in the responses of one definition version: the mean, over the
 * responses that answered it, of what `responseInformation` gives it. `stored` are the sums the database made of
 * the figures stored with the responses; `responses` are responses stored without them (before the column, or by
 * an older instance during a deploy), worked out here.
 */
export function questionInformation(
  definition: SurveyDefinition,
  options: {
    stored?: readonly StoredInformationTotal[];
    responses?: readonly { answers: SurveyAnswers; askedOrder: readonly string[] }[];
  },
): QuestionInformation[] {
  const totals = new Map<string, { answered: number; bits: number }>();
  for (const question of definition.questions) if (question.kind === 'choice') totals.set(question.id, { answered: 0, bits: 0 });
  const add = (questionId: string, answered: number, bits: number) => {
    const total = totals.get(questionId);
    // A stored figure for a question the definition does not have as a choice question cannot arise; skipped.
    if (total === undefined) return;
    total.answered += answered;
    total.bits += bits;
  };
  for (const total of options.stored ?? []) add(total.questionId, total.answered, total.bits);
  for (const response of options.responses ?? [])
    for (const [id, bits] of Object.entries(responseInformation(definition, response))) add(id, 1, bits);
  return [...totals].map(([questionId, total]) => ({
    questionId,
    answered: total.answered,
    meanBits: total.answered === 0 ? 0 : total.bits / total.answered,
  }));
}
