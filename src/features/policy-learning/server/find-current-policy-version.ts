import 'server-only';
/** The version of the personalised policy in use (the latest stored), for the pages; null before the loop first used it. */
import type { Database } from '@/db/client';
import type { PolicyVersionDto } from '../schemas';
import { readLatestPolicyState } from './policy-state-rows';

export async function findCurrentPolicyVersion(options: { database: Database }): Promise<PolicyVersionDto | null> {
  const latest = await readLatestPolicyState(options);
  if (latest === null) return null;
  return {
    version: latest.version,
    createdAt: latest.createdAt.toISOString(),
    decisionsUsed: latest.decisionsUsed,
    trainedThrough: latest.trainedThrough?.toISOString() ?? null,
  };
}
