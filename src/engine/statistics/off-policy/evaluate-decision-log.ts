/**
 * Off-policy evaluation straight from policy_decisions rows as a live use case reads them (plain values:
 * the context as stored JSON, the action columns, the propensity and the reward, null until the day is over).
 */
import { decisionContextFromJson, loggedActionIndex, offPolicySamples, type TargetPolicy } from './decision-log-samples';
import { evaluateTargetPolicy, type EvaluateTargetPolicyOptions, type TargetPolicyEvaluation } from './evaluate-target-policy';

export type PolicyDecisionRow = {
  patientId: string;
  context: Record<string, unknown>;
  action: 'no-message' | 'message';
  category: string | null;
  framing: string | null;
  propensity: number;
  /** arm_probabilities: null for a policy that reports only its choice's propensity. */
  armProbabilities: readonly number[] | null;
  reward: number | null;
};

export type DecisionLogEvaluation = TargetPolicyEvaluation & {
  /** Rows left out because their day has no reward yet. */
  unrewarded: number;
};

export function evaluateDecisionLog(
  options: { rows: readonly PolicyDecisionRow[]; target: TargetPolicy } & Omit<EvaluateTargetPolicyOptions, 'samples'>,
): DecisionLogEvaluation {
  const { rows, target, ...settings } = options;
  const rewarded = rows.filter((row): row is PolicyDecisionRow & { reward: number } => row.reward !== null);
  const samples = offPolicySamples(
    rewarded.map((row) => ({
      patientId: row.patientId,
      context: decisionContextFromJson(row.context),
      action: loggedActionIndex(row),
      propensity: row.propensity,
      reward: row.reward,
      armProbabilities: row.armProbabilities,
    })),
    target,
  );
  return { ...evaluateTargetPolicy({ samples, ...settings }), unrewarded: rows.length - rewarded.length };
}
