/** The policies the simulator can run by name (the CLI's --policy). */
import { createFixedDailyPolicy } from './fixed-daily-policy';
import { createFixedWeeklyPolicy } from './fixed-weekly-policy';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { createNoMessagePolicy } from './no-message-policy';
import { createPersonalisedPolicy } from '@/engine/policy/personalised/personalised-policy';

export const policyNames = ['none', 'fixed-daily', 'fixed-weekly', 'personalised'] as const;
export type PolicyName = (typeof policyNames)[number];

export function isPolicyName(name: string): name is PolicyName {
  return (policyNames as readonly string[]).includes(name);
}

export function createPolicy(name: PolicyName): MessagingPolicy {
  switch (name) {
    case 'none':
      return createNoMessagePolicy();
    case 'fixed-daily':
      return createFixedDailyPolicy();
    case 'fixed-weekly':
      return createFixedWeeklyPolicy();
    case 'personalised':
      // A fresh prior with the default settings: it learns from the run's own days.
      return createPersonalisedPolicy();
  }
}
