/** Standard care in reminder apps: the same neutral reminder every day at one fixed time. */
import type { MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';

/** 08:00: the common default of reminder services, and after most patients' usual morning dose time. */
export const defaultDailyReminderMinute = 8 * 60;

export function createFixedDailyPolicy(options: { minuteOfDay?: number } = {}): MessagingPolicy {
  const choice: PolicyChoice = {
    kind: 'message',
    arm: { category: 'reminder', framing: 'neutral' },
    minuteOfDay: options.minuteOfDay ?? defaultDailyReminderMinute,
    propensity: 1,
  };
  return { name: 'fixed-daily', version: '1', decide: () => choice };
}
