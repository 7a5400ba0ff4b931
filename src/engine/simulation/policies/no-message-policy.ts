/** The control arm: never sends anything. */
import type { MessagingPolicy, PolicyChoice } from './messaging-policy';

const noMessage: PolicyChoice = { kind: 'no-message', propensity: 1 };

export function createNoMessagePolicy(): MessagingPolicy {
  return { name: 'none', version: '1', decide: () => noMessage };
}
