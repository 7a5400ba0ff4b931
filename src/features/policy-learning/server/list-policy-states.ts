import 'server-only';
/**
 * The latest stored versions of the personalised policy, oldest first, each with its posterior summary (each
 * arm's advantage over no message per persona): the learning-visualization page's slider over time.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { policyStates } from '@/db/schema';
import { personalisedPolicyName, summarisePosterior, type PolicyState } from '@/engine/policy/personalised';
import { AppError } from '@/lib/errors';
import { maximumPolicyStatesListed, type PolicyStateSummaryDto } from '../schemas';

export async function listPolicyStates(options: { database: Database; limit: number }): Promise<PolicyStateSummaryDto[]> {
  const { limit } = options;
  if (!Number.isInteger(limit) || limit < 1 || limit > maximumPolicyStatesListed)
    throw new AppError('validation', `limit must be a whole number from 1 to ${maximumPolicyStatesListed}.`);
  const rows = await options.database
    .select({
      version: policyStates.version,
      source: policyStates.source,
      // Only the personas' posteriors are summarised: the per-patient part (about 200 bytes a patient, every
      // version) stays in the database instead of being read and parsed on every page view.
      state: sql<Record<string, unknown>>`(${policyStates.state} - 'patients') || '{"patients":{}}'::jsonb`,
      decisionsUsed: policyStates.decisionsUsed,
      trainedThrough: policyStates.trainedThrough,
      createdAt: policyStates.createdAt,
    })
    .from(policyStates)
    .where(eq(policyStates.policyName, personalisedPolicyName))
    .orderBy(desc(policyStates.id))
    .limit(limit);
  return rows.reverse().map((row) => ({
    version: Number(row.version),
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    decisionsUsed: row.decisionsUsed,
    trainedThrough: row.trainedThrough?.toISOString() ?? null,
    posterior: summarisePosterior(row.state as unknown as PolicyState),
  }));
}
