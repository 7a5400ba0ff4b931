import { describe, expect, it } from 'vitest';
import { personaParameters, personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import {
  adherenceBarriersSurvey,
  adherenceBarriersSurveyVersion1,
  adherenceBarriersSurveyVersion2,
  adherenceBarriersSurveyVersion3,
  lifestyleSurvey,
} from './definitions';
import {
  countPersonaAccuracy,
  drawSimulatedRecord,
  informativeQuestions,
  measurePersonaAccuracy,
  questionsToReach,
  summarisePersonaAccuracy,
} from './persona-accuracy';
import { SIMULATED_ANSWER_NOISE } from './simulate-answers';
import type { SurveyDefinition } from './types';
import { countPersonaAccuracyReference } from './test-support/persona-accuracy-reference';

const shares = Object.fromEntries(personas.map((persona) => [persona, personaParameters[persona].share])) as Record<
  (typeof personas)[number],
  number
>;
const uniformForSeed = (seed: number) => (index: number) => {
  const stream = createRandomStream(seed, index, 'survey');
  return () => nextUniform(stream);
};
const uniformFor = uniformForSeed(47);
/** The page's measurement of a definition: 4,000 simulated patients, 15% guessing, seed 47 unless given. */
const measure = (definition: SurveyDefinition, seed = 47) =>
  measurePersonaAccuracy({ definition, shares, patients: 4000, noise: SIMULATED_ANSWER_NOISE, uniformFor: uniformForSeed(seed) });

describe('questionsToReach', () => {
  const curve = [
    { questions: 0, adaptive: 0.2, fixed: 0.2 },
    { questions: 1, adaptive: 0.81, fixed: 0.5 },
    { questions: 2, adaptive: 0.9, fixed: 0.8 },
  ];
  it('finds the first number of questions at or above the target, or null', () => {
    expect(questionsToReach(curve, 'adaptive', 0.8)).toBe(1);
    expect(questionsToReach(curve, 'fixed', 0.8)).toBe(2);
    expect(questionsToReach(curve, 'fixed', 0.95)).toBeNull();
  });
});

describe('informativeQuestions', () => {
  it('keeps the barrier questions and drops the lifestyle items, whose likelihoods are equal on purpose', () => {
    expect(informativeQuestions(adherenceBarriersSurvey)).toHaveLength(adherenceBarriersSurvey.questions.length);
    expect(informativeQuestions(lifestyleSurvey)).toHaveLength(0);
  });
});

describe('persona accuracy on simulated patients (adherence barriers, demo noise)', () => {
  const result = measure(adherenceBarriersSurvey);
  const points = result.curve;

  it('uses the same answers for both orders: equal before any question and after all of them', () => {
    // The age group, the channel and the supply come from the record (decision 068): 26 questions are asked.
    expect(points).toHaveLength(adherenceBarriersSurvey.questions.length - 3 + 1);
    expect(points[0]!.adaptive).toBe(points[0]!.fixed);
    expect(points.at(-1)!.adaptive).toBe(points.at(-1)!.fixed);
  });

  it('is more accurate in the adaptive order at the product’s 5-question limit', () => {
    expect(points[5]!.adaptive).toBeGreaterThan(points[5]!.fixed);
  });

  it('with the product’s stop rules asks at most 5 questions, fewer for patients it is sure of, and is at most 2 points less accurate than the curve at 5', () => {
    expect(result.withStopRules.meanQuestions).toBeGreaterThan(3);
    expect(result.withStopRules.meanQuestions).toBeLessThan(5);
    // Stopping at 85% leaves a few patients on a top persona the next questions would have changed (version 4, seed
    // 47: 71.8% against 72.9%).
    expect(result.withStopRules.accuracy).toBeLessThanOrEqual(points[5]!.adaptive + 0.005);
    expect(result.withStopRules.accuracy).toBeGreaterThan(points[5]!.adaptive - 0.02);
  });

  // The issue's target. Measured with version 4 (version 3's 29 questions; the age group, the channel and the supply
  // from the record) and 15% guessing (docs/decisions/068): the adaptive order passes 80% after 10 questions, the
  // fixed order after 17, a ratio of 0.588 (seeds 48–50: 0.59, 0.56, 0.53; version 3: 13 / 20, 0.65, not met).
  it('reaches 80% persona accuracy with at most 60% of the questions the fixed order needs (issue 17)', () => {
    expect(result.adaptiveQuestionsToTarget).not.toBeNull();
    expect(result.fixedQuestionsToTarget).not.toBeNull();
    expect(result.adaptiveQuestionsToTarget!).toBeLessThanOrEqual(0.6 * result.fixedQuestionsToTarget!);
  });

  it('meets it on other seeds too, and not by much: the best accuracy stays under 90%', () => {
    for (const seed of [48, 49, 50]) {
      const other = measure(adherenceBarriersSurvey, seed);
      expect(other.questionRatio!).toBeLessThanOrEqual(0.6);
    }
    const best = Math.max(...points.map((point) => Math.max(point.adaptive, point.fixed)));
    expect(best).toBeGreaterThanOrEqual(result.target);
    expect(best).toBeLessThan(0.9);
  });

  it('did not meet it with version 3, which asked everything: 13 / 20 (decision 062)', () => {
    const versionThree = measure(adherenceBarriersSurveyVersion3);
    expect([versionThree.adaptiveQuestionsToTarget, versionThree.fixedQuestionsToTarget]).toEqual([13, 20]);
    expect(versionThree.questionRatio!).toBeGreaterThan(0.6);
  });

  it('reaches 80% in fewer adaptive questions than version 2, at a lower ratio, and is more accurate after all of them', () => {
    const versionTwo = measure(adherenceBarriersSurveyVersion2);
    expect(result.adaptiveQuestionsToTarget!).toBeLessThan(versionTwo.adaptiveQuestionsToTarget!);
    expect(result.questionRatio!).toBeLessThan(versionTwo.questionRatio!);
    expect(points.at(-1)!.fixed).toBeGreaterThan(versionTwo.curve.at(-1)!.fixed);
  });

  it('starts from the record, so both orders reach 80% sooner than version 3 and the product’s 5 questions find more (decision 068)', () => {
    const versionThree = measure(adherenceBarriersSurveyVersion3);
    // Version 3 starts from a uniform prior: right for the share of the largest persona only.
    expect(versionThree.curve[0]!.adaptive).toBeLessThan(0.25);
    expect(points[0]!.adaptive).toBeGreaterThan(0.35);
    expect(result.adaptiveQuestionsToTarget!).toBeLessThan(versionThree.adaptiveQuestionsToTarget!);
    expect(result.fixedQuestionsToTarget!).toBeLessThan(versionThree.fixedQuestionsToTarget!);
    expect(points[5]!.adaptive).toBeGreaterThan(versionThree.curve[5]!.adaptive + 0.05);
    expect(result.withStopRules.meanQuestions).toBeLessThan(versionThree.withStopRules.meanQuestions);
    expect(result.withStopRules.accuracy).toBeGreaterThan(versionThree.withStopRules.accuracy + 0.05);
  });

  it('is more accurate than version 1 at the product’s 5-question limit and after every question', () => {
    const versionOne = measure(adherenceBarriersSurveyVersion1).curve;
    expect(points[5]!.adaptive).toBeGreaterThan(versionOne[5]!.adaptive);
    expect(points.at(-1)!.fixed).toBeGreaterThan(versionOne.at(-1)!.fixed);
  });
});

describe('the cheaper computation (docs/decisions/062)', () => {
  it('counts exactly what the product’s nextQuestion and posteriorFromAnswers give, for every version', () => {
    for (const definition of [
      adherenceBarriersSurveyVersion1,
      adherenceBarriersSurveyVersion2,
      adherenceBarriersSurveyVersion3,
      adherenceBarriersSurvey,
    ]) {
      const options = { definition, shares, patients: 300, noise: SIMULATED_ANSWER_NOISE, uniformFor, from: 0, to: 300 };
      expect(countPersonaAccuracy(options)).toEqual(countPersonaAccuracyReference(options));
    }
  });
});

describe('the survey as the product runs it (its stop rules on)', () => {
  const likelihoods = (values: readonly number[]) =>
    Object.fromEntries(personas.map((persona, index) => [persona, values[index]!])) as Record<(typeof personas)[number], number>;
  // One question that says a lot and two that say almost nothing (their gain is below the 0.02-bit minimum), so
  // the product asks the first and stops for want of an informative question; a test of that rule.
  const weakBank: SurveyDefinition = {
    key: 'weak-bank',
    title: 'A strong question and two weak ones',
    description: 'Test only.',
    order: 'adaptive',
    questions: [
      {
        kind: 'choice',
        id: 'strong',
        text: 'Strong',
        topic: 'test',
        options: [
          { value: 'a', label: 'A', likelihoods: likelihoods([0.9, 0.9, 0.1, 0.1, 0.5, 0.5]) },
          { value: 'b', label: 'B', likelihoods: likelihoods([0.1, 0.1, 0.9, 0.9, 0.5, 0.5]) },
        ],
      },
      ...['weak-1', 'weak-2'].map((id) => ({
        kind: 'choice' as const,
        id,
        text: id,
        topic: 'test',
        options: [
          { value: 'a', label: 'A', likelihoods: likelihoods([0.52, 0.5, 0.5, 0.5, 0.5, 0.48]) },
          { value: 'b', label: 'B', likelihoods: likelihoods([0.48, 0.5, 0.5, 0.5, 0.5, 0.52]) },
        ],
      })),
    ],
  };

  it('counts what the product’s nextQuestion asks and finds, whichever rule stops it', () => {
    for (const definition of [weakBank, adherenceBarriersSurveyVersion1, adherenceBarriersSurvey]) {
      const options = { definition, shares, patients: 300, noise: SIMULATED_ANSWER_NOISE, uniformFor, from: 0, to: 300 };
      expect(countPersonaAccuracy(options).withStopRules).toEqual(countPersonaAccuracyReference(options).withStopRules);
    }
  });

  it('stops when no question is informative enough: one question asked of every patient in the weak bank', () => {
    const result = measurePersonaAccuracy({ definition: weakBank, shares, patients: 300, noise: SIMULATED_ANSWER_NOISE, uniformFor });
    expect(result.withStopRules.meanQuestions).toBe(1);
    expect(result.withStopRules.accuracy).toBe(result.curve[1]!.adaptive);
  });
});

describe('drawSimulatedRecord', () => {
  it('draws the age band and channel as the simulator does: never an age band the persona has no weight for', () => {
    const stream = createRandomStream(3, 0, 'survey');
    const uniform = () => nextUniform(stream);
    const forgetful = Array.from({ length: 2000 }, () => drawSimulatedRecord('forgetful-older-adult', uniform));
    expect(forgetful.some((record) => record['age-band'] === '18-34' || record['age-band'] === '35-44')).toBe(false);
    // ageBandWeights [0, 0, 0.5, 2, 4, 4]: 75+ about 4 / 10.5 of them.
    expect(forgetful.filter((record) => record['age-band'] === '75+').length / 2000).toBeCloseTo(4 / 10.5, 1);
    // Older patients lean towards SMS (patient-profile's preferredChannelWeights), more than channelWeights alone (5 / 8).
    expect(forgetful.filter((record) => record['preferred-channel'] === 'sms').length / 2000).toBeGreaterThan(5 / 8 + 0.05);
  });
});

describe('measuring in slices', () => {
  it('adds up to the same curve as one pass over every patient', () => {
    const options = { definition: adherenceBarriersSurvey, shares, patients: 90, noise: SIMULATED_ANSWER_NOISE, uniformFor };
    const whole = measurePersonaAccuracy(options);
    const slices = [0, 25, 50, 75].map((from) => countPersonaAccuracy({ ...options, from, to: from + 25 }));
    expect(summarisePersonaAccuracy({ counts: slices, patients: 90, noise: SIMULATED_ANSWER_NOISE })).toEqual(whole);
    // A slice past the population counts no one.
    expect(countPersonaAccuracy({ ...options, from: 90, to: 120 }).fixed.every((count) => count === 0)).toBe(true);
  });
});
