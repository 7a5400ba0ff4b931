/**
 * The lab's uniform-random baseline: every day each patient gets no message or one of the arms, each with
 * the same probability, at the fixed daily reminder's time (so the baselines differ from the personalised
 * policy in what they send, not when). What a policy that learns nothing about arms would do on average.
 */
import type { MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';
import { armCount, messageCategories, messageFramings } from '@/engine/policy/message-arms';
import { defaultDailyReminderMinute } from '@/engine/simulation/policies/fixed-daily-policy';

const actionCount = armCount + 1;
const propensity = 1 / actionCount;

export function createUniformRandomPolicy(): MessagingPolicy {
  return {
    name: 'uniform-random',
    version: '1',
    decide: (_context, random): PolicyChoice => {
      const action = Math.min(actionCount - 1, Math.floor(random() * actionCount));
      if (action === 0) return { kind: 'no-message', propensity };
      const index = action - 1;
      return {
        kind: 'message',
        arm: {
          category: messageCategories[Math.floor(index / messageFramings.length)]!,
          framing: messageFramings[index % messageFramings.length]!,
        },
        minuteOfDay: defaultDailyReminderMinute,
        propensity,
      };
    },
  };
}
