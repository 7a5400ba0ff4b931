import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionContext, MessagingPolicy, PolicyChoice, PolicyFeedback } from '@/engine/policy/contract';
import { armCount } from '@/engine/policy/message-arms';
import { personas } from '@/engine/simulation/personas';
import { createRandomStream, nextUniform } from '@/engine/simulation/random';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { createPolicy } from '@/engine/simulation/policies/policy-registry';
import { createPersonalisedPolicy, messageMinute, standardNormalCdf } from './personalised-policy';
import { createPolicyState, updatePolicyState, type LoggedDecision } from './policy-state';
import { defaultPersonalisedSettings } from './settings';

function context(overrides: Partial<DecisionContext> = {}, last7Days = 0): DecisionContext {
  return {
    patientId: 'patient-1',
    persona: 'busy-professional',
    features: {
      ageBand: '35-44',
      sex: 'female',
      conditions: ['hypertension'],
      productCount: 1,
      preferredChannel: 'sms',
      doseObserver: 'app',
    },
    day: 20_089,
    dayIndex: 0,
    weekday: 3,
    minuteOfDay: 300,
    firstDoseMinute: 480,
    recentHistory: { dosesScheduledLast7Days: 7, dosesConfirmedLast7Days: 5, daysSinceLastReply: null, estimatedDaysOfSupplyLeft: 20 },
    messageCounts: { last7Days, last28Days: last7Days, total: last7Days, repliesLast28Days: 0 },
    ...overrides,
  };
}

function seeded(seed: number) {
  const stream = createRandomStream(seed, 0, 'policy');
  return () => nextUniform(stream);
}

function checkProbabilities(choice: PolicyChoice, floor: number, ceiling: number): void {
  const probabilities = choice.armProbabilities!;
  expect(probabilities).toHaveLength(armCount + 1);
  const total = probabilities.reduce((sum, value) => sum + value, 0);
  expect(total).toBeCloseTo(1, 12);
  for (const value of probabilities) expect(value).toBeGreaterThanOrEqual(0);
  const send = 1 - probabilities[0]!;
  expect(send).toBeGreaterThanOrEqual(floor - 1e-12);
  expect(send).toBeLessThanOrEqual(ceiling + 1e-12);
  const action = choice.kind === 'no-message' ? 0 : 1 + armIndexOf(choice);
  expect(choice.propensity).toBe(probabilities[action]);
  expect(choice.propensity).toBeGreaterThan(0);
}

function armIndexOf(choice: Extract<PolicyChoice, { kind: 'message' }>): number {
  const categories = ['reminder', 'refill', 'education', 'encouragement', 'check-in'];
  const framings = ['neutral', 'gain', 'loss', 'social'];
  return categories.indexOf(choice.arm.category) * 4 + framings.indexOf(choice.arm.framing);
}

/**
 * Synthetic decisions in which messages of `goodArm`'s category add `effect` × 0.6 to the observed reward
 * and messages of its framing `effect` × 0.4 (the model's additive content effects).
 */
function syntheticDecisions(count: number, goodArm: number, effect: number, seed = 1): LoggedDecision[] {
  const goodCategory = Math.floor((goodArm - 1) / 4);
  const goodFraming = (goodArm - 1) % 4;
  const random = seeded(seed);
  const decisions: LoggedDecision[] = [];
  for (let index = 0; index < count; index += 1) {
    const probabilities = new Array<number>(armCount + 1).fill(0.5 / armCount);
    probabilities[0] = 0.5;
    const uniform = random();
    const action = uniform < 0.5 ? 0 : 1 + Math.min(armCount - 1, Math.floor((uniform - 0.5) * 2 * armCount));
    const category = Math.floor((action - 1) / 4);
    const framing = (action - 1) % 4;
    const content = action === 0 ? 0 : (category === goodCategory ? 0.6 * effect : 0) + (framing === goodFraming ? 0.4 * effect : 0);
    const reward = 0.6 + content + (random() - 0.5) * 0.4;
    decisions.push({
      patientId: `patient-${index % 200}`,
      persona: 'medication-sceptic',
      context: context({ patientId: `patient-${index % 200}`, persona: 'medication-sceptic' }),
      action,
      propensity: probabilities[action]!,
      observedReward: reward,
      armProbabilities: probabilities,
    });
  }
  return decisions;
}

describe('personalised policy: decisions', () => {
  it('logs every action probability, sends within [floor, ceiling] and reports the exact propensity', () => {
    const policy = createPersonalisedPolicy();
    const random = seeded(7);
    for (let day = 0; day < 200; day += 1) {
      const choice = policy.decide(context({ dayIndex: day, weekday: day % 7 }, day % 4), random);
      checkProbabilities(choice, 0.2, 0.8);
    }
  });

  it('gives the same decisions for the same seed and state', () => {
    const state = updatePolicyState(createPolicyState(), syntheticDecisions(2000, 9, 0.2));
    const run = () => {
      const policy = createPersonalisedPolicy({ state });
      const random = seeded(3);
      return Array.from({ length: 50 }, (_, day) => policy.decide(context({ dayIndex: day }), random));
    };
    expect(run()).toEqual(run());
  });

  it('sends nothing once the weekly cap is reached', () => {
    const policy = createPersonalisedPolicy({ settings: { messagesPerWeekCap: 3 } });
    const choice = policy.decide(context({}, 3), seeded(1));
    expect(choice.kind).toBe('no-message');
    expect(choice.propensity).toBe(1);
    expect(choice.armProbabilities?.[0]).toBe(1);
  });

  it('times messages before the first dose and outside quiet hours', () => {
    expect(messageMinute(context({ firstDoseMinute: 540 }), null)).toBe(495);
    expect(messageMinute(context({ firstDoseMinute: 400 }), { startMinute: 22 * 60, endMinute: 7 * 60 })).toBe(420);
    expect(messageMinute(context({ firstDoseMinute: 1200 }), { startMinute: 1100, endMinute: 1300 })).toBe(1300);
    const policy = createPersonalisedPolicy({ settings: { sendProbabilityFloor: 1, sendProbabilityCeiling: 1 } });
    const choice = policy.decide(context({ firstDoseMinute: 360 }), seeded(2));
    expect(choice).toMatchObject({ kind: 'message', minuteOfDay: defaultPersonalisedSettings.quietHours!.endMinute });
  });

  it('learns the arm that helps and chooses it', () => {
    const state = updatePolicyState(createPolicyState(), syntheticDecisions(20_000, 10, 0.1));
    const policy = createPersonalisedPolicy({ state });
    const random = seeded(5);
    const counts = new Array<number>(armCount + 1).fill(0);
    for (let day = 0; day < 400; day += 1) {
      const choice = policy.decide(context({ persona: 'medication-sceptic', patientId: `new-${day}`, dayIndex: day }), random);
      const action = choice.kind === 'no-message' ? 0 : 1 + armIndexOf(choice);
      counts[action] = counts[action]! + 1;
    }
    const best = counts.slice(1).indexOf(Math.max(...counts.slice(1))) + 1;
    expect(best).toBe(10);
    // A clearly helpful arm is sent near the ceiling.
    expect(counts[0]! / 400).toBeLessThan(0.3);
  });

  it('is a normal cdf', () => {
    expect(standardNormalCdf(0)).toBeCloseTo(0.5, 7);
    expect(standardNormalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(standardNormalCdf(-1)).toBeCloseTo(0.158655, 6);
  });

  it('keeps propensities in bounds for any settings, context and learned state (property)', () => {
    const learned = updatePolicyState(createPolicyState(), syntheticDecisions(3000, 5, 0.15));
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.integer({ min: 0, max: 14 }),
        fc.constantFrom(...personas),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.boolean(),
        (a, b, burdenWeight, last7Days, persona, seed, useLearned) => {
          const floor = Math.min(a, b);
          const ceiling = Math.max(a, b);
          const policy = createPersonalisedPolicy({
            state: useLearned ? learned : createPolicyState(),
            settings: { sendProbabilityFloor: floor, sendProbabilityCeiling: ceiling, burdenWeight, messagesPerWeekCap: 7 },
          });
          const choice = policy.decide(context({ persona, patientId: 'patient-3' }, last7Days), seeded(seed));
          if (last7Days >= 7) expect(choice.kind).toBe('no-message');
          else checkProbabilities(choice, floor, ceiling);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('personalised policy: learns only from what the product observes', () => {
  /** Runs a small cohort; `alter` may change the feedback before the policy sees it. Returns every decision. */
  function decisionsOf(alter: (feedback: PolicyFeedback, index: number) => PolicyFeedback): PolicyChoice[] {
    const personalised = createPolicy('personalised');
    const decisions: PolicyChoice[] = [];
    let feedbackIndex = 0;
    const policy: MessagingPolicy = {
      name: personalised.name,
      version: personalised.version,
      decide: (decisionContext, random) => {
        const choice = personalised.decide(decisionContext, random);
        decisions.push(choice);
        return choice;
      },
      learn: (feedback) => {
        personalised.learn!(alter(feedback, feedbackIndex));
        feedbackIndex += 1;
      },
      endDay: (dayIndex) => personalised.endDay!(dayIndex),
    };
    simulateCohort({ patientCount: 150, days: 30, seed: 4, startDay: 20_089, policy });
    return decisions;
  }

  it('decides identically when the simulation truth (reward, doses taken) is scrambled', () => {
    const honest = decisionsOf((feedback) => feedback);
    const scrambled = decisionsOf((feedback, index) => ({
      ...feedback,
      reward: (index * 0.6180339887) % 1,
      outcome: { ...feedback.outcome, dosesTaken: index % 3 },
    }));
    expect(honest.length).toBeGreaterThan(3000);
    expect(scrambled).toEqual(honest);
  });

  it('decides differently when the observed reward changes (the test above could fail)', () => {
    const honest = decisionsOf((feedback) => feedback);
    const altered = decisionsOf((feedback, index) => ({ ...feedback, observedReward: (index * 0.6180339887) % 1 }));
    expect(altered).not.toEqual(honest);
  });
});
