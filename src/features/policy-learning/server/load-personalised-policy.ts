import 'server-only';
/**
 * The personalised policy as the daily loop decides with it: built from the latest stored version (the prior,
 * stored as version 0, before the first nightly update). Its `version` is the stored version, so every
 * decision names the beliefs it was drawn from (policy_decisions.policy_version).
 */
import type { Database } from '@/db/client';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { createPersonalisedPolicy } from '@/engine/policy/personalised';
import { readOrCreateLatestPolicyState } from './policy-state-rows';

export async function loadPersonalisedPolicy(options: { database: Database; now: Date }): Promise<MessagingPolicy> {
  const stored = await readOrCreateLatestPolicyState(options);
  // The row's version is the one decisions must name, whatever the state's own counter says.
  return createPersonalisedPolicy({ state: { ...stored.state, version: stored.version }, settings: stored.settings });
}
