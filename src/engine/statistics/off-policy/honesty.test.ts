/**
 * The honesty test of issue 13: a log from the uniform-random policy estimates the fixed-daily reminder's
 * value, and each interval must contain the value fixed-daily actually earns when it runs on the same
 * cohort (the mean observed reward per decision). Decision 022 records how often this holds across seeds
 * and why the per-decision estimate leans high on long runs (habituation carries over between days).
 * The same for a randomised target: the personalised policy, trained on another cohort and then frozen.
 */
import { describe, expect, it } from 'vitest';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { recordDecisions, type DecisionLogEntry } from '@/engine/policy/decision-log';
import { createPersonalisedPolicy } from '@/engine/policy/personalised';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createUniformRandomPolicy } from '@/engine/simulation/policies/uniform-random-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { offPolicySamples, targetFromPolicy } from './decision-log-samples';
import { evaluateTargetPolicy } from './evaluate-target-policy';

// 300 patients × 60 days: about 18,000 logged decisions, 450 of them the fixed-daily reminder; a few seconds.
const cohort = { patientCount: 300, days: 60, seed: 1, startDay: 20_089 };

function decisionLog(policy: MessagingPolicy): DecisionLogEntry[] {
  const entries: DecisionLogEntry[] = [];
  simulateCohort({ ...cohort, policy: recordDecisions(policy, (entry) => entries.push(entry)) });
  return entries;
}

function meanObservedReward(entries: readonly DecisionLogEntry[]): number {
  return entries.reduce((total, entry) => total + entry.observedReward, 0) / entries.length;
}

let uniformLog: DecisionLogEntry[] | null = null;
/** The logging policy's log, shared by both tests. */
function loggedByUniformRandom(): DecisionLogEntry[] {
  uniformLog ??= decisionLog(createUniformRandomPolicy());
  return uniformLog;
}

describe('off-policy evaluation on simulated logs', () => {
  it('estimates fixed-daily from uniform-random logs within intervals that contain its on-policy value', () => {
    const onPolicyValue = meanObservedReward(decisionLog(createFixedDailyPolicy()));

    const logged = loggedByUniformRandom();
    const samples = offPolicySamples(
      logged.map((entry) => ({ ...entry, reward: entry.observedReward })),
      targetFromPolicy(createFixedDailyPolicy()),
    );
    const evaluation = evaluateTargetPolicy({ samples, seed: 1 });

    expect(evaluation.decisions).toBe(logged.length);
    // Uniform logging gives every action a chance: fixed-daily's action is always covered.
    expect(evaluation.unsupportedTargetMass).toBe(0);
    for (const estimate of [evaluation.ips, evaluation.snips, evaluation.doublyRobust]) {
      expect(estimate.lower).toBeLessThanOrEqual(onPolicyValue);
      expect(estimate.upper).toBeGreaterThanOrEqual(onPolicyValue);
    }
    // The reward model earns its keep: DR is more precise than IPS on the same log.
    expect(evaluation.doublyRobust.upper - evaluation.doublyRobust.lower).toBeLessThan(evaluation.ips.upper - evaluation.ips.lower);

    // The check can fail: a log that misstates its propensities (as if each message had been sent with
    // probability 1/2) puts IPS far from the truth.
    const misstated = evaluateTargetPolicy({
      samples: samples.map((sample) => ({ ...sample, propensity: 0.5 })),
      seed: 1,
      replicates: 200,
    });
    expect(misstated.ips.upper).toBeLessThan(onPolicyValue);
  });

  it('estimates a randomised target (a trained, frozen personalised policy) within intervals that contain its on-policy value', () => {
    const trainer = createPersonalisedPolicy();
    simulateCohort({ patientCount: 400, days: 56, seed: 101, startDay: cohort.startDay, policy: trainer });
    const state = trainer.state();
    // Frozen: decides from the trained posterior and learns no more, so its value is one number.
    const frozen = (): MessagingPolicy => {
      const policy = createPersonalisedPolicy({ state });
      return { name: policy.name, version: policy.version, decide: policy.decide };
    };
    const onPolicyValue = meanObservedReward(decisionLog(frozen()));

    const logged = loggedByUniformRandom();
    const samples = offPolicySamples(
      logged.map((entry) => ({ ...entry, reward: entry.observedReward })),
      targetFromPolicy(frozen(), { seed: 1 }),
    );
    const evaluation = evaluateTargetPolicy({ samples, seed: 1 });
    expect(evaluation.unsupportedTargetMass).toBe(0);
    for (const estimate of [evaluation.ips, evaluation.snips, evaluation.doublyRobust]) {
      expect(estimate.lower).toBeLessThanOrEqual(onPolicyValue);
      expect(estimate.upper).toBeGreaterThanOrEqual(onPolicyValue);
    }
    // It spreads its messages, so far more of the log speaks for it than for fixed-daily.
    expect(evaluation.effectiveSampleSize).toBeGreaterThan(logged.length / 5);
  });
});
