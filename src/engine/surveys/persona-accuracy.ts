/**
 * How fast a survey finds the persona (docs/decisions/047): simulated patients with a known true persona
 * answer every persona-informative question, and after each number of questions asked we check whether the
 * top persona of the posterior is the true one — once in the adaptive order (largest expected information
 * gain next) and once in the definition's fixed order. The stop rules are switched off for the curves so both
 * run to the last question; the same adaptive sequence is also followed with the product's stop rules on, which
 * says how many questions a patient is actually asked and how often the persona is then right. Each patient's
 * answer to a question is drawn once and read by both orders, so the two curves differ only by the order. The
 * questions a patient's record answers (decision 068) take their answers from a record drawn as the simulator draws
 * one, are never asked, and give both orders their starting point. Pure: the caller passes the draws.
 */
import { messageChannels } from '@/engine/policy/message-arms';
import { daysSupplyFromDraw, preferredChannelWeights } from '@/engine/simulation/patient-profile';
import { ageBands, type Persona, personaParameters, personas } from '@/engine/simulation/personas';
import { weightedIndexOf } from '@/engine/simulation/random';
import {
  carriesPersonaInformation,
  entropy,
  likelihoodMatrix,
  MAX_ADAPTIVE_QUESTIONS,
  MIN_INFORMATION_GAIN,
  STOP_PROBABILITY,
  topPersona,
  uniformPrior,
  updatePosterior,
} from './inference';
import { answersFromRecord } from './record-answers';
import { simulateAnswer } from './simulate-answers';
import type { ChoiceQuestion, PatientRecordFacts, SurveyDefinition } from './types';

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
  /** The adaptive survey as the product runs it (nextQuestion's stop rules on): questions asked and accuracy. */
  withStopRules: { meanQuestions: number; accuracy: number };
};

/** Share of patients of each persona the simulated population is drawn from (the cohort's shares). */
export type PersonaShares = Readonly<Record<Persona, number>>;

/** Questions whose answers say something about the persona (some option's likelihood differs by persona). */
export function informativeQuestions(definition: SurveyDefinition): ChoiceQuestion[] {
  return definition.questions.filter(
    (question): question is ChoiceQuestion => question.kind === 'choice' && carriesPersonaInformation(question),
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

/**
 * Patients whose top persona is their true one after k = 0…n questions, in each order; and, with the product's
 * stop rules, the patients counted, the questions they were asked in all and those whose top persona was true.
 */
export type AccuracyCounts = {
  adaptive: number[];
  fixed: number[];
  withStopRules: { patients: number; questions: number; correct: number };
};

/**
 * Expected information gain of a question at `prior`, whose entropy is `before`: the same arithmetic, in the same
 * order, as `expectedInformationGain` (inference.ts) — so the same bits to the last digit — without allocating
 * a posterior per answer. The measurement calls it hundreds of times per simulated patient (docs/decisions/062).
 */
function informationGain(prior: readonly number[], before: number, likelihoods: readonly (readonly number[])[], scratch: number[]): number {
  let after = 0;
  for (const answer of likelihoods) {
    let probability = 0;
    for (let index = 0; index < prior.length; index += 1) probability += prior[index]! * answer[index]!;
    if (probability <= 0) continue;
    // updatePosterior's evidence is this same sum in the same order, so its posterior is joint ÷ probability.
    for (let index = 0; index < prior.length; index += 1) scratch[index] = (prior[index]! * answer[index]!) / probability;
    let bits = 0;
    for (let index = 0; index < prior.length; index += 1) {
      const p = scratch[index]!;
      if (p > 0) bits -= p * Math.log2(p);
    }
    after += probability * bits;
  }
  return Math.max(0, before - after);
}

/**
 * The counts for patients `from` (inclusive) to `to` (exclusive) of the simulated population: a caller can
 * measure it in slices (the server yields to other requests between them) and add the slices up.
 *
 * The adaptive order is `nextQuestion`'s with the stop rules off (largest expected gain at the posterior of the
 * answers so far, ties to the definition's order), and the posteriors are `posteriorFromAnswers`' (Bayes' rule
 * over the answered questions in the definition's order); both are computed here from likelihood tables read
 * once per measurement, and each posterior once per step, which gives the same counts at a fraction of the cost
 * (a test compares them with the product's functions, test-support/persona-accuracy-reference.ts).
 */
export function countPersonaAccuracy(options: AccuracyOptions & { from: number; to: number }): AccuracyCounts {
  // Every informative question in the definition's order; those the record answers are never asked.
  const informative = informativeQuestions(options.definition);
  const fromRecord = informative.map((question) => question.recordField !== undefined);
  const asked = informative.flatMap((question, position) => (fromRecord[position] ? [] : [position]));
  const count = asked.length;
  // matrices[q][a][k] = P(answer a of question q | persona k), as likelihoodMatrix gives it.
  const matrices = informative.map(likelihoodMatrix);
  const correct: AccuracyCounts = {
    adaptive: new Array<number>(count + 1).fill(0),
    fixed: new Array<number>(count + 1).fill(0),
    withStopRules: { patients: 0, questions: 0, correct: 0 },
  };
  const scratch = new Array<number>(personas.length).fill(0);
  const personaIndex = new Map(personas.map((persona, index) => [persona, index]));
  for (let index = options.from; index < Math.min(options.to, options.patients); index += 1) {
    const uniform = options.uniformFor(index);
    const persona = drawPersona(options.shares, uniform);
    const truth = personaIndex.get(persona)!;
    // The answer drawn for each question, as the index of its option (the draws in the same order as before).
    const drawn = informative.map((question) => {
      const value = simulateAnswer(question, persona, options.noise, uniform);
      return question.options.findIndex((option) => option.value === value);
    });
    // The record's answers replace the survey's for the questions it answers (drawn after, so the survey's draws
    // are those of a definition without record questions); a record value no option names answers nothing.
    const known = new Array<boolean>(informative.length).fill(false);
    if (fromRecord.some(Boolean)) {
      const recordAnswers = answersFromRecord(options.definition, drawSimulatedRecord(persona, uniform));
      informative.forEach((question, position) => {
        const value = recordAnswers[question.id];
        if (!fromRecord[position] || value === undefined) return;
        drawn[position] = question.options.findIndex((option) => option.value === value);
        known[position] = true;
      });
    }
    const isTrue = (posterior: readonly number[]) => personaIndex.get(topPersona(posterior).persona) === truth;
    // Bayes' rule over the known answers in the definition's order, as posteriorFromAnswers does.
    const posteriorOf = (answered: readonly boolean[]) => {
      let posterior = uniformPrior();
      for (let position = 0; position < informative.length; position += 1)
        if (answered[position]) posterior = updatePosterior(posterior, matrices[position]![drawn[position]!]!);
      return posterior;
    };

    // Fixed order: the asked questions in the definition's order, after what the record says.
    const fixedAnswered = [...known];
    let fixed = posteriorOf(fixedAnswered);
    if (isTrue(fixed)) correct.fixed[0]! += 1;
    for (let step = 1; step <= count; step += 1) {
      fixedAnswered[asked[step - 1]!] = true;
      fixed = posteriorOf(fixedAnswered);
      if (isTrue(fixed)) correct.fixed[step]! += 1;
    }

    // Adaptive order: the posterior is rebuilt over the known answers in the definition's order (as
    // posteriorFromAnswers does), once per step; the next question is the largest gain at it.
    const answered = [...known];
    let adaptive = posteriorOf(answered);
    if (isTrue(adaptive)) correct.adaptive[0]! += 1;
    // The product's stop rules (nextQuestion's defaults) on the same sequence: where a patient would have stopped.
    let stopped = false;
    const stopHere = (questionsAsked: number) => {
      if (stopped) return;
      stopped = true;
      correct.withStopRules.patients += 1;
      correct.withStopRules.questions += questionsAsked;
      if (isTrue(adaptive)) correct.withStopRules.correct += 1;
    };
    for (let step = 1; step <= count; step += 1) {
      // As nextQuestion: confident only once a question has been asked (the record alone never ends the survey).
      if ((step > 1 && Math.max(...adaptive) >= STOP_PROBABILITY) || step - 1 >= MAX_ADAPTIVE_QUESTIONS) stopHere(step - 1);
      const before = entropy(adaptive);
      let best = -1;
      let bestGain = 0;
      for (const question of asked) {
        if (answered[question]) continue;
        const gain = informationGain(adaptive, before, matrices[question]!, scratch);
        // Ties keep the definition's order, as in nextQuestion.
        if (best < 0 || gain > bestGain + 1e-12) {
          best = question;
          bestGain = gain;
        }
      }
      if (bestGain <= MIN_INFORMATION_GAIN) stopHere(step - 1);
      answered[best] = true;
      adaptive = posteriorOf(answered);
      if (isTrue(adaptive)) correct.adaptive[step]! += 1;
    }
    stopHere(count);
  }
  return correct;
}

/**
 * A simulated patient's record as the simulator draws it (patient-profile.ts): the age band from the persona's
 * `ageBandWeights`, then the preferred channel from `preferredChannelWeights` at that age band, then the days'
 * supply every fill has (`daysSupplyFromDraw`) — three draws from `uniform`, after the patient's survey answers.
 */
export function drawSimulatedRecord(persona: Persona, uniform: () => number): PatientRecordFacts {
  const ageBandIndex = weightedIndexOf(personaParameters[persona].ageBandWeights, uniform());
  const channel = messageChannels[weightedIndexOf(preferredChannelWeights(persona, ageBandIndex), uniform())]!;
  const daysSupply = daysSupplyFromDraw(persona, uniform());
  return { 'age-band': ageBands[ageBandIndex]!, 'preferred-channel': channel, 'days-supply': String(daysSupply) };
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
  const stopRules = options.counts.reduce(
    (sum, counts) => ({
      patients: sum.patients + counts.withStopRules.patients,
      questions: sum.questions + counts.withStopRules.questions,
      correct: sum.correct + counts.withStopRules.correct,
    }),
    { patients: 0, questions: 0, correct: 0 },
  );
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
    withStopRules: {
      meanQuestions: stopRules.patients === 0 ? 0 : stopRules.questions / stopRules.patients,
      accuracy: stopRules.patients === 0 ? 0 : stopRules.correct / stopRules.patients,
    },
  };
}

export function measurePersonaAccuracy(options: AccuracyOptions): PersonaAccuracy {
  const counts = countPersonaAccuracy({ ...options, from: 0, to: options.patients });
  return summarisePersonaAccuracy({ counts: [counts], patients: options.patients, noise: options.noise, target: options.target });
}
