/**
 * Persona inference from survey answers (docs/decisions/041): Bayes' rule per answer, the next question by
 * expected information gain (in bits), and the stop rules. Pure; the persona list is the simulator's.
 */
import { type Persona, personas } from '@/engine/simulation/personas';
import type { ChoiceQuestion, SurveyAnswers, SurveyDefinition, SurveyQuestion } from './types';

/** A distribution over personas, in `personas` order. */
export type PersonaPosterior = readonly number[];

export const STOP_PROBABILITY = 0.85;
export const MAX_ADAPTIVE_QUESTIONS = 5;
/** Below this expected gain (bits) a question is not worth the patient's time. */
export const MIN_INFORMATION_GAIN = 0.02;

export function uniformPrior(count: number = personas.length): number[] {
  return Array.from({ length: count }, () => 1 / count);
}

/** Shannon entropy in bits (0 log 0 = 0). */
export function entropy(distribution: readonly number[]): number {
  let bits = 0;
  for (const p of distribution) if (p > 0) bits -= p * Math.log2(p);
  return bits;
}

/** Posterior ∝ prior × P(answer | persona); a zero-probability answer under every persona leaves the prior. */
export function updatePosterior(prior: readonly number[], likelihood: readonly number[]): number[] {
  if (prior.length !== likelihood.length) throw new RangeError(`Expected ${prior.length} likelihoods, got ${likelihood.length}`);
  const joint = prior.map((p, index) => p * likelihood[index]!);
  const evidence = joint.reduce((sum, value) => sum + value, 0);
  if (evidence <= 0) return [...prior];
  return joint.map((value) => value / evidence);
}

/**
 * Expected information gain of a question: H(prior) − Σ_answers P(answer) H(posterior | answer), where
 * `likelihoods[a][k]` = P(answer a | persona k).
 */
export function expectedInformationGain(prior: readonly number[], likelihoods: readonly (readonly number[])[]): number {
  const before = entropy(prior);
  let after = 0;
  for (const answer of likelihoods) {
    const probability = prior.reduce((sum, p, index) => sum + p * answer[index]!, 0);
    if (probability > 0) after += probability * entropy(updatePosterior(prior, answer));
  }
  return Math.max(0, before - after);
}

/** A question's likelihood matrix in `personas` order (answers × personas). */
export function likelihoodMatrix(question: ChoiceQuestion): number[][] {
  return question.options.map((option) => personas.map((persona) => option.likelihoods[persona]));
}

/** Whether any answer is more likely under one persona than another (lifestyle items are not, by design). */
export function carriesPersonaInformation(question: SurveyQuestion): boolean {
  return (
    question.kind === 'choice' &&
    question.options.some((option) =>
      personas.some((persona) => Math.abs(option.likelihoods[persona] - option.likelihoods[personas[0]]) > 1e-9),
    )
  );
}

/** The posterior after the answers given so far (number answers carry no likelihood and are skipped). */
export function posteriorFromAnswers(
  definition: SurveyDefinition,
  answers: SurveyAnswers,
  prior: readonly number[] = uniformPrior(),
): number[] {
  let posterior = [...prior];
  for (const question of definition.questions) {
    const answer = answers[question.id];
    if (question.kind !== 'choice' || answer === undefined) continue;
    const option = question.options.find((candidate) => candidate.value === answer);
    if (option !== undefined)
      posterior = updatePosterior(
        posterior,
        personas.map((persona) => option.likelihoods[persona]),
      );
  }
  return posterior;
}

export type StopReason = 'confident' | 'no-informative-question' | 'question-limit' | 'all-asked';
export type NextStep = { done: false; question: SurveyQuestion; informationGain: number | null } | { done: true; reason: StopReason };

/** Whether a question is due: a number question follows only a positive answer to the question it depends on. */
function isDue(definition: SurveyDefinition, question: SurveyQuestion, answers: SurveyAnswers): boolean {
  if (question.kind !== 'number' || question.askedWhenPositive === undefined) return true;
  const parent = definition.questions.find((candidate) => candidate.id === question.askedWhenPositive);
  if (parent === undefined || parent.kind !== 'choice') return true;
  const option = parent.options.find((candidate) => candidate.value === answers[parent.id]);
  return (option?.score ?? 0) > 0;
}

/** Questions the patient has been asked and answered: answers the record gave (`fromRecord`, decision 068) are not. */
export function questionsAsked(definition: SurveyDefinition, answers: SurveyAnswers, fromRecord: readonly string[] = []): number {
  return definition.questions.filter((question) => answers[question.id] !== undefined && !fromRecord.includes(question.id)).length;
}

/**
 * The next question: in a fixed survey the first unanswered due one; in an adaptive survey the unanswered
 * choice question with the largest expected information gain, until the top persona reaches 0.85, no
 * question gains more than `minInformationGain`, or 5 questions have been asked. Answers the patient's record
 * gave (`fromRecord`, docs/decisions/068) count in the posterior but not as questions asked.
 */
export function nextQuestion(options: {
  definition: SurveyDefinition;
  answers: SurveyAnswers;
  /** Ids of the answers the record gave (`recordAnsweredIds`). */
  fromRecord?: readonly string[];
  prior?: readonly number[];
  minInformationGain?: number;
  maxQuestions?: number;
  stopProbability?: number;
}): NextStep {
  const { definition, answers } = options;
  const unanswered = definition.questions.filter((question) => answers[question.id] === undefined && isDue(definition, question, answers));
  if (definition.order === 'fixed') {
    const question = unanswered[0];
    return question === undefined ? { done: true, reason: 'all-asked' } : { done: false, question, informationGain: null };
  }
  const posterior = posteriorFromAnswers(definition, answers, options.prior);
  const asked = questionsAsked(definition, answers, options.fromRecord);
  // Confident only after a question: a patient who opens the survey is asked at least one, even when the record
  // alone makes one persona likely enough (decision 068).
  if (asked > 0 && Math.max(...posterior) >= (options.stopProbability ?? STOP_PROBABILITY)) return { done: true, reason: 'confident' };
  if (asked >= (options.maxQuestions ?? MAX_ADAPTIVE_QUESTIONS)) return { done: true, reason: 'question-limit' };
  let best: { question: ChoiceQuestion; gain: number } | null = null;
  for (const question of unanswered) {
    if (question.kind !== 'choice') continue;
    const gain = expectedInformationGain(posterior, likelihoodMatrix(question));
    // Ties keep the definition's order, so the sequence is deterministic.
    if (best === null || gain > best.gain + 1e-12) best = { question, gain };
  }
  if (best === null) return { done: true, reason: 'all-asked' };
  if (best.gain <= (options.minInformationGain ?? MIN_INFORMATION_GAIN)) return { done: true, reason: 'no-informative-question' };
  return { done: false, question: best.question, informationGain: best.gain };
}

/** The most probable persona and its probability. */
export function topPersona(posterior: readonly number[]): { persona: Persona; probability: number } {
  let best = 0;
  posterior.forEach((p, index) => {
    if (p > posterior[best]!) best = index;
  });
  return { persona: personas[best]!, probability: posterior[best]! };
}

/** Checks a definition's likelihoods: each choice question's options sum to 1 for every persona. */
export function likelihoodProblems(definition: SurveyDefinition): string[] {
  const problems: string[] = [];
  for (const question of definition.questions) {
    if (question.kind !== 'choice') continue;
    for (const persona of personas) {
      const sum = question.options.reduce((total, option) => total + option.likelihoods[persona], 0);
      if (Math.abs(sum - 1) > 1e-6) problems.push(`questions.${question.id}: P(answer | ${persona}) sums to ${sum.toFixed(4)}, not 1`);
    }
  }
  return problems;
}
