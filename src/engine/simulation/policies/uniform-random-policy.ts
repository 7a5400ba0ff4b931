/**
 * The logging policy of off-policy evaluation's honesty test: each day, no message or a message with
 * probability 1/2 each, and the message's arm uniformly among all category × framing arms, with the exact
 * propensity of what it chose. Every action has positive probability, so the log can evaluate any policy.
 * Messages go at the fixed-daily reminder's time: the time is not part of the evaluated action.
 */
import type { MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';
import { armCount, messageCategories, messageFramings } from '@/engine/policy/message-arms';
import { defaultDailyReminderMinute } from './fixed-daily-policy';

export const uniformRandomPolicyName = 'uniform-random';

/** The send probability: 1/2, the most even split between the two kinds of action. */
const sendProbability = 0.5;

/** Index 0: no message; 1 + armIndex: that arm. */
export const uniformRandomArmProbabilities: number[] = [
  1 - sendProbability,
  ...new Array<number>(armCount).fill(sendProbability / armCount),
];

export function createUniformRandomPolicy(options: { minuteOfDay?: number } = {}): MessagingPolicy {
  const minuteOfDay = options.minuteOfDay ?? defaultDailyReminderMinute;
  const noMessage: PolicyChoice = { kind: 'no-message', propensity: 1 - sendProbability, armProbabilities: uniformRandomArmProbabilities };
  // One choice object per arm, built once: decide runs for every simulated patient-day.
  const messages: PolicyChoice[] = messageCategories.flatMap((category) =>
    messageFramings.map((framing) => ({
      kind: 'message' as const,
      arm: { category, framing },
      minuteOfDay,
      propensity: sendProbability / armCount,
      armProbabilities: uniformRandomArmProbabilities,
    })),
  );
  return {
    name: uniformRandomPolicyName,
    version: '1',
    decide(_context, random) {
      if (random() >= sendProbability) return noMessage;
      // armIndex order: category-major, as messages is built.
      return messages[Math.min(armCount - 1, Math.floor(random() * armCount))]!;
    },
  };
}
