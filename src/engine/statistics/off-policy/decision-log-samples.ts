/**
 * From decision-log rows (the simulator's decision log, or policy_decisions rows read by a live use case)
 * to the samples the off-policy estimators take: the action as an index, the reward model's stratum, and
 * the target policy's probabilities in the logged context.
 */
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
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
  /** The logging policy's probability of every action, when it reported them (policy_decisions.arm_probabilities). */
  armProbabilities?: readonly number[] | null;
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
      loggingProbabilities: row.armProbabilities ?? null,
    };
  });
}

/** One-hot probabilities of a single action. */
export function certainAction(action: number): number[] {
  const probabilities = new Array<number>(actionCount).fill(0);
  probabilities[action] = 1;
  return probabilities;
}

/** How many times a randomised target is asked per context by default (see targetFromPolicy). */
export const defaultTargetDraws = 10;

/**
 * A MessagingPolicy as a target: the certain action of a deterministic policy (propensity 1), or, for a
 * randomised policy, its reported armProbabilities averaged over `draws` decisions from a seeded stream.
 * The average matters for Thompson sampling, whose armProbabilities are given its posterior draw: the
 * policy's probability of an action is their mean over draws. Any number of draws keeps IPS and DR
 * unbiased (each draw's probabilities are an unbiased estimate of the mean); more draws cut variance.
 * Asks `decide` without learning, so a learning policy is evaluated as it stands. Deterministic for a seed
 * and the order of contexts.
 */
export function targetFromPolicy(policy: MessagingPolicy, options: { seed?: number; draws?: number } = {}): TargetPolicy {
  const draws = options.draws ?? defaultTargetDraws;
  if (!Number.isInteger(draws) || draws < 1) throw new RangeError(`draws must be a positive integer, got ${draws}`);
  const generator = xoroshiro128plus(options.seed ?? 0);
  const random = () => (generator.next() >>> 0) / 2 ** 32;
  // One array per action, shared by every context a deterministic policy decides alike (a log may hold millions).
  const certain = Array.from({ length: actionCount }, (_, action) => certainAction(action));
  return (context) => {
    const choice = policy.decide(context, random);
    if (choice.armProbabilities === undefined) {
      if (choice.propensity !== 1)
        throw new RangeError(`policy ${policy.name} chose with propensity ${choice.propensity} but reports no armProbabilities`);
      return certain[choice.kind === 'no-message' ? 0 : 1 + armIndex(choice.arm.category, choice.arm.framing)]!;
    }
    const mean = [...choice.armProbabilities];
    for (let draw = 1; draw < draws; draw += 1) {
      const probabilities = policy.decide(context, random).armProbabilities ?? [];
      for (let action = 0; action < mean.length; action += 1) mean[action]! += probabilities[action] ?? 0;
    }
    return draws === 1 ? mean : mean.map((total) => total / draws);
  };
}
