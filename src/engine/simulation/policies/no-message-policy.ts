/** The control arm: never sends anything. */
import type { MessagingPolicy, PolicyChoice } from '@/engine/policy/contract';

const noMessage: PolicyChoice = { kind: 'no-message', propensity: 1 };

export function createNoMessagePolicy(): MessagingPolicy {
  return { name: 'none', version: '1', decide: () => noMessage };
}
