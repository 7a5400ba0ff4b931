import { describe, expect, it } from 'vitest';
import { recordDecisions, type DecisionLogEntry } from '@/engine/policy/decision-log';
import { messageCategories, messageFramings } from '@/engine/policy/message-arms';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createUniformRandomPolicy } from '@/engine/simulation/policies/uniform-random-policy';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { offPolicySamples, targetFromPolicy } from './decision-log-samples';
import { evaluateDecisionLog, type PolicyDecisionRow } from './evaluate-decision-log';
import { evaluateTargetPolicy } from './evaluate-target-policy';

const arms = messageCategories.flatMap((category) => messageFramings.map((framing) => ({ category, framing })));
describe('evaluateDecisionLog', () => {
  it('reads policy_decisions rows (stored JSON context, action columns) as the simulated log, leaving out unrewarded days', () => {
    const entries: DecisionLogEntry[] = [];
    simulateCohort({
      patientCount: 40,
      days: 30,
      seed: 2,
      startDay: 20_089,
      policy: recordDecisions(createUniformRandomPolicy(), (entry) => entries.push(entry)),
    });
    const rows: PolicyDecisionRow[] = entries.map((entry) => {
      const arm = entry.action === 0 ? null : arms[entry.action - 1]!;
      return {
        patientId: entry.patientId,
        context: JSON.parse(JSON.stringify(entry.context)) as Record<string, unknown>,
        action: arm === null ? 'no-message' : 'message',
        category: arm?.category ?? null,
        framing: arm?.framing ?? null,
        propensity: entry.propensity,
        armProbabilities: entry.armProbabilities,
        reward: entry.observedReward,
      };
    });
    const target = targetFromPolicy(createFixedDailyPolicy());
    const live = evaluateDecisionLog({ rows: [...rows, { ...rows[0]!, reward: null }], target, seed: 3, replicates: 200 });
    const simulated = evaluateTargetPolicy({
      samples: offPolicySamples(
        entries.map((entry) => ({ ...entry, reward: entry.observedReward })),
        target,
      ),
      seed: 3,
      replicates: 200,
    });
    expect(live).toEqual({ ...simulated, unrewarded: 1 });
    expect(live.unsupportedTargetMass).toBe(0);
  });
});
