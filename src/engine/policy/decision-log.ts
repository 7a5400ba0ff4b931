/**
 * Records every decision a MessagingPolicy makes in the simulator, with its propensity, its action
 * probabilities and the rewards of the day: the simulated counterpart of policy_decisions, for off-policy
 * evaluation and the CLI's --decisions file. The wrapped policy decides and learns exactly as it would
 * unwrapped; the wrapper only listens.
 */
import type { DecisionContext, MessagingPolicy, PolicyFeedback } from './contract';
import { armIndex } from './message-arms';

export type DecisionLogEntry = {
  patientId: string;
  context: DecisionContext;
  /** 0 = no message, 1 + armIndex(category, framing). */
  action: number;
  /** The policy's probability of this action. */
  propensity: number;
  /** Every action's probability, when the policy reports them (index as `action`); else null. */
  armProbabilities: readonly number[] | null;
  /** What the product observed (policy_decisions.reward): the feedback's observedReward. */
  observedReward: number;
  /** Simulation truth: share of the day's scheduled doses taken. For evaluation only. */
  reward: number;
  policyName: string;
  policyVersion: string;
};

export function actionOfChoice(choice: PolicyFeedback['choice']): number {
  return choice.kind === 'no-message' ? 0 : 1 + armIndex(choice.arm.category, choice.arm.framing);
}

/**
 * Wraps `policy` so that `onDecision` receives each decision once its day's outcome is known. The simulator
 * gives feedback only to a policy that has `learn`, so the wrapper always has one (a non-learning policy
 * then runs day by day rather than patient by patient: the same records, somewhat slower).
 */
export function recordDecisions(policy: MessagingPolicy, onDecision: (entry: DecisionLogEntry) => void): MessagingPolicy {
  // The version the decision was drawn from: a batch update may move it before the feedback arrives.
  const versions = new WeakMap<DecisionContext, string>();
  return {
    name: policy.name,
    get version() {
      return policy.version;
    },
    decide(context, random) {
      versions.set(context, policy.version);
      return policy.decide(context, random);
    },
    learn(feedback) {
      const { context, choice } = feedback;
      onDecision({
        patientId: context.patientId,
        context,
        action: actionOfChoice(choice),
        propensity: choice.propensity,
        armProbabilities: choice.armProbabilities ?? null,
        observedReward: feedback.observedReward,
        reward: feedback.reward,
        policyName: policy.name,
        policyVersion: versions.get(context) ?? policy.version,
      });
      policy.learn?.(feedback);
    },
    // The batch update runs as it would unwrapped (its absence keeps a fixed policy's runs as they were).
    ...(policy.endDay === undefined ? {} : { endDay: (dayIndex: number) => policy.endDay?.(dayIndex) }),
  };
}
