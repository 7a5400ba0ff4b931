/** A weekly check-in ("How did your medicines go this week?") on a fixed weekday and time. */
import type { MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';

const noMessage: PolicyChoice = { kind: 'no-message', propensity: 1 };

export function createFixedWeeklyPolicy(options: { weekday?: number; minuteOfDay?: number } = {}): MessagingPolicy {
  // Monday 10:00 by default: after the weekend, outside the morning rush.
  const weekday = options.weekday ?? 1;
  const checkIn: PolicyChoice = {
    kind: 'message',
    arm: { category: 'check-in', framing: 'neutral' },
    minuteOfDay: options.minuteOfDay ?? 10 * 60,
    propensity: 1,
  };
  return {
    name: 'fixed-weekly',
    version: '1',
    decide: (context) => (context.weekday === weekday ? checkIn : noMessage),
  };
}
