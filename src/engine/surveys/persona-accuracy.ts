/**
 * How fast a survey finds the persona (docs/decisions/047): simulated patients with a known true persona
 * answer every persona-informative question, and after each number of questions asked we check whether the
 * top persona of the posterior is the true one — once in the adaptive order (largest expected information
 * gain next) and once in the definition's fixed order. The stop rules are switched off here so both curves
 * run to the last question; the product keeps them. Each patient's answer to a question is drawn once and
 * read by both orders, so the two curves differ only by the order. Pure: the caller passes the draws.
 */
import { type Persona, personas } from '@/engine/simulation/personas';
import { nextQuestion, posteriorFromAnswers, topPersona } from './inference';
import { simulateAnswer } from './simulate-answers';
import type { ChoiceQuestion, SurveyDefinition } from './types';

export type AccuracyPoint = {
  /** Questions asked so far (0 = the prior alone). */
  questions: number;
  /** Share of simulated patients whose top persona is their true persona. */
  adaptive: number;
  fixed: number;
};

export type PersonaAccuracy = {
  patients: number;
  noise: number;
  target: number;
  curve: AccuracyPoint[];
  /** Fewest questions at which each order reaches `target` accuracy; null when it never does. */
  adaptiveQuestionsToTarget: number | null;
  fixedQuestionsToTarget: number | null;
  /** adaptive ÷ fixed questions to target; null when either never reaches it. */
  questionRatio: number | null;
};

/** Share of patients of each persona the simulated population is drawn from (the cohort's shares). */
export type PersonaShares = Readonly<Record<Persona, number>>;

/** Questions whose answers say something about the persona (some option's likelihood differs by persona). */
export function informativeQuestions(definition: SurveyDefinition): ChoiceQuestion[] {
  return definition.questions.filter(
    (question): question is ChoiceQuestion =>
      question.kind === 'choice' &&
      question.options.some((option) =>
        personas.some((persona) => Math.abs(option.likelihoods[persona] - option.likelihoods[personas[0]]) > 1e-9),
      ),
  );
}

export function questionsToReach(curve: readonly AccuracyPoint[], order: 'adaptive' | 'fixed', target: number): number | null {
  return curve.find((point) => point[order] >= target)?.questions ?? null;
}

function drawPersona(shares: PersonaShares, uniform: () => number): Persona {
  const total = personas.reduce((sum, persona) => sum + shares[persona], 0);
  let draw = uniform() * total;
  for (const persona of personas) {
    draw -= shares[persona];
    if (draw < 0) return persona;
  }
  return personas[personas.length - 1]!;
}

type AccuracyOptions = {
  definition: SurveyDefinition;
  shares: PersonaShares;
  patients: number;
  noise: number;
  /** A uniform [0, 1) source for patient `index`, so each patient's draws are its own. */
  uniformFor: (index: number) => () => number;
  target?: number;
};

/** Patients whose top persona is their true one after k = 0…n questions, in each order. */
export type AccuracyCounts = { adaptive: number[]; fixed: number[] };

/**
 * The counts for patients `from` (inclusive) to `to` (exclusive) of the simulated population: a caller can
 * measure it in slices (the server yields to other requests between them) and add the slices up.
 */
export function countPersonaAccuracy(options: AccuracyOptions & { from: number; to: number }): AccuracyCounts {
  const questions = informativeQuestions(options.definition);
  const definition: SurveyDefinition = { ...options.definition, questions };
  const adaptiveDefinition: SurveyDefinition = { ...definition, order: 'adaptive' };
  const correct: AccuracyCounts = {
    adaptive: new Array<number>(questions.length + 1).fill(0),
    fixed: new Array<number>(questions.length + 1).fill(0),
  };
  for (let index = options.from; index < Math.min(options.to, options.patients); index += 1) {
    const uniform = options.uniformFor(index);
    const persona = drawPersona(options.shares, uniform);
    const drawn: Record<string, string> = {};
    for (const question of questions) drawn[question.id] = simulateAnswer(question, persona, options.noise, uniform) as string;

    const fixedAnswers: Record<string, string> = {};
    const adaptiveAnswers: Record<string, string> = {};
    for (let asked = 0; asked <= questions.length; asked += 1) {
      if (asked > 0) {
        const fixedQuestion = questions[asked - 1]!;
        fixedAnswers[fixedQuestion.id] = drawn[fixedQuestion.id]!;
        const step = nextQuestion({
          definition: adaptiveDefinition,
          answers: adaptiveAnswers,
          stopProbability: Number.POSITIVE_INFINITY,
          maxQuestions: Number.POSITIVE_INFINITY,
          minInformationGain: Number.NEGATIVE_INFINITY,
        });
        if (step.done) throw new Error('The adaptive order stopped before every question was asked');
        adaptiveAnswers[step.question.id] = drawn[step.question.id]!;
      }
      if (topPersona(posteriorFromAnswers(definition, fixedAnswers)).persona === persona) correct.fixed[asked]! += 1;
      if (topPersona(posteriorFromAnswers(definition, adaptiveAnswers)).persona === persona) correct.adaptive[asked]! += 1;
    }
  }
  return correct;
}

/** Adds slices' counts (as countPersonaAccuracy returns them) into the curve and the questions to the target. */
export function summarisePersonaAccuracy(options: {
  counts: readonly AccuracyCounts[];
  patients: number;
  noise: number;
  target?: number;
}): PersonaAccuracy {
  const target = options.target ?? 0.8;
  const length = options.counts[0]?.fixed.length ?? 1;
  const total = (order: 'adaptive' | 'fixed', questions: number) =>
    options.counts.reduce((sum, counts) => sum + counts[order][questions]!, 0);
  const curve = Array.from({ length }, (_, questionsAsked) => ({
    questions: questionsAsked,
    adaptive: total('adaptive', questionsAsked) / options.patients,
    fixed: total('fixed', questionsAsked) / options.patients,
  }));
  const adaptiveQuestionsToTarget = questionsToReach(curve, 'adaptive', target);
  const fixedQuestionsToTarget = questionsToReach(curve, 'fixed', target);
  return {
    patients: options.patients,
    noise: options.noise,
    target,
    curve,
    adaptiveQuestionsToTarget,
    fixedQuestionsToTarget,
    questionRatio:
      adaptiveQuestionsToTarget === null || fixedQuestionsToTarget === null || fixedQuestionsToTarget === 0
        ? null
        : adaptiveQuestionsToTarget / fixedQuestionsToTarget,
  };
}

export function measurePersonaAccuracy(options: AccuracyOptions): PersonaAccuracy {
  const counts = countPersonaAccuracy({ ...options, from: 0, to: options.patients });
  return summarisePersonaAccuracy({ counts: [counts], patients: options.patients, noise: options.noise, target: options.target });
}
