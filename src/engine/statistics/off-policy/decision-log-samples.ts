/**
 * From decision-log rows (the simulator's decision log, or policy_decisions rows read by a live use case)
 * to the samples the off-policy estimators take: the action as an index, the reward model's stratum, and
 * the target policy's probabilities in the logged context.
 */
import type { DecisionContext, MessagingPolicy } from '@/engine/policy/contract';
import {
  armCount,
  armIndex,
  messageCategories,
  messageFramings,
  type MessageCategory,
  type MessageFraming,
} from '@/engine/policy/message-arms';
import { personas, type Persona } from '@/engine/simulation/personas';
import type { OffPolicySample } from './estimators';

/** Actions of the decision log: 0 = no message, 1 + armIndex for each category × framing. */
export const actionCount = armCount + 1;

/** A logged decision as plain data, whichever log it comes from. */
export type DecisionLogRow = {
  patientId: string;
  context: DecisionContext;
  /** 0 = no message, 1 + armIndex (see loggedActionIndex for policy_decisions' columns). */
  action: number;
  /** The logging policy's probability of `action`. */
  propensity: number;
  /** The observed reward (policy_decisions.reward). */
  reward: number;
};

/** The target policy: its probability of every action (length actionCount) in a context. */
export type TargetPolicy = (context: DecisionContext) => readonly number[];

/** The action index of a policy_decisions row (action, category, framing columns). */
export function loggedActionIndex(row: { action: 'no-message' | 'message'; category: string | null; framing: string | null }): number {
  if (row.action === 'no-message') return 0;
  if (!messageCategories.includes(row.category as MessageCategory))
    throw new RangeError(`category is not a message category: ${row.category}`);
  if (!messageFramings.includes(row.framing as MessageFraming)) throw new RangeError(`framing is not a message framing: ${row.framing}`);
  return 1 + armIndex(row.category as MessageCategory, row.framing as MessageFraming);
}

/**
 * The stored context (policy_decisions.context, JSON) as a DecisionContext, checking the fields the
 * estimators and reward model read; a target policy reading more must check them itself.
 */
export function decisionContextFromJson(json: Record<string, unknown>): DecisionContext {
  if (!personas.includes(json.persona as Persona)) throw new RangeError(`context.persona is not a persona: ${String(json.persona)}`);
  const history = json.recentHistory as Record<string, unknown> | undefined;
  if (typeof history?.dosesScheduledLast7Days !== 'number' || typeof history.dosesConfirmedLast7Days !== 'number')
    throw new RangeError('context.recentHistory must hold dosesScheduledLast7Days and dosesConfirmedLast7Days');
  return json as unknown as DecisionContext;
}

/**
 * The reward model's stratum: persona × how much of last week's doses were confirmed. Today's confirmed
 * share follows last week's closely (a patient who confirms keeps confirming), so this separates most of
 * the reward's variance that no action explains.
 */
export function rewardModelGroup(context: DecisionContext): string {
  const { dosesScheduledLast7Days: scheduled, dosesConfirmedLast7Days: confirmed } = context.recentHistory;
  const share = scheduled === 0 ? -1 : confirmed / scheduled;
  // Thresholds: none scheduled; under half; under PDC's 0.8; at least 0.8.
  const band = share < 0 ? 'none' : share < 0.5 ? 'low' : share < 0.8 ? 'mid' : 'high';
  return `${context.persona}|${band}`;
}

export function offPolicySamples(rows: readonly DecisionLogRow[], target: TargetPolicy): OffPolicySample[] {
  return rows.map((row) => {
    const targetProbabilities = target(row.context);
    if (targetProbabilities.length !== actionCount)
      throw new RangeError(`the target policy must give ${actionCount} action probabilities, got ${targetProbabilities.length}`);
    return {
      cluster: row.patientId,
      group: rewardModelGroup(row.context),
      action: row.action,
      propensity: row.propensity,
      reward: row.reward,
      targetProbabilities,
    };
  });
}

/** One-hot probabilities of a single action. */
export function certainAction(action: number): number[] {
  const probabilities = new Array<number>(actionCount).fill(0);
  probabilities[action] = 1;
  return probabilities;
}

/** Any draw will do: only the probabilities a policy reports (or the certainty of its choice) are used. */
const middleDraw = () => 0.5;

/**
 * A MessagingPolicy as a target: its armProbabilities when its choice reports them, else (a deterministic
 * policy, propensity 1) the action it takes. Asks `decide` without learning, so for a learning policy it
 * evaluates the policy as it stands.
 */
export function targetFromPolicy(policy: MessagingPolicy): TargetPolicy {
  return (context) => {
    const choice = policy.decide(context, middleDraw);
    if ('armProbabilities' in choice && Array.isArray(choice.armProbabilities)) return choice.armProbabilities as number[];
    if (choice.propensity !== 1)
      throw new RangeError(`policy ${policy.name} chose with propensity ${choice.propensity} but reports no armProbabilities`);
    return certainAction(choice.kind === 'no-message' ? 0 : 1 + armIndex(choice.arm.category, choice.arm.framing));
  };
}
