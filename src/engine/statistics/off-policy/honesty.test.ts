/**
 * The honesty test of issue 13: a log from the uniform-random policy estimates the fixed-daily reminder's
 * value, and each interval must contain the value fixed-daily actually earns when it runs on the same
 * cohort (the mean observed reward per decision). Decision 022 records how often this holds across seeds
 * and why the per-decision estimate leans high on long runs (habituation carries over between days).
 */
import { describe, expect, it } from 'vitest';
import type { PolicyFeedback, MessagingPolicy } from '@/engine/policy/contract';
import { recordDecisions, type DecisionLogEntry } from '@/engine/policy/decision-log';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createUniformRandomPolicy } from '@/engine/simulation/policies/uniform-random-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { offPolicySamples, targetFromPolicy } from './decision-log-samples';
import { evaluateTargetPolicy } from './evaluate-target-policy';

// 300 patients × 60 days: about 18,000 logged decisions, 450 of them the fixed-daily reminder; a few seconds.
const cohort = { patientCount: 300, days: 60, seed: 1, startDay: 20_089 };

const observedReward = (feedback: PolicyFeedback) =>
  feedback.outcome.dosesScheduled === 0 ? 0 : feedback.outcome.dosesConfirmed / feedback.outcome.dosesScheduled;

function decisionLog(policy: MessagingPolicy): DecisionLogEntry[] {
  const entries: DecisionLogEntry[] = [];
  simulateCohort({ ...cohort, policy: recordDecisions(policy, { onDecision: (entry) => entries.push(entry), observedReward }) });
  return entries;
}

describe('off-policy evaluation on simulated logs', () => {
  it('estimates fixed-daily from uniform-random logs within intervals that contain its on-policy value', () => {
    const onPolicy = decisionLog(createFixedDailyPolicy());
    const onPolicyValue = onPolicy.reduce((total, entry) => total + entry.observedReward, 0) / onPolicy.length;

    const logged = decisionLog(createUniformRandomPolicy());
    const samples = offPolicySamples(
      logged.map((entry) => ({ ...entry, reward: entry.observedReward })),
      targetFromPolicy(createFixedDailyPolicy()),
    );
    const evaluation = evaluateTargetPolicy({ samples, seed: 1 });

    expect(evaluation.decisions).toBe(logged.length);
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
});
