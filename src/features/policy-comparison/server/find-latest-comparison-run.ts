/**
 * The viewer's most recent comparison run (their own, whatever their role), so the page opened without a
 * run id can point back to a run started earlier and left. Null when they have started none.
 */
import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { requireActor } from '@/lib/server/authorization';
import { getJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import type { ComparisonRun } from '../schemas';
import { toComparisonRun } from './get-comparison-run';
import { comparisonJobKind } from './start-policy-comparison';

export async function findLatestComparisonRun(options: { database: Database; actor: SessionUser | null }): Promise<ComparisonRun | null> {
  const actor = requireActor(options.actor);
  // jobs_kind_created_idx serves this: the kind's jobs newest first, the first of this user's.
  const [latest] = await options.database
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, comparisonJobKind), eq(jobs.createdBy, actor.id)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
  if (latest === undefined) return null;
  const job = await getJob({ database: options.database, id: latest.id });
  return job === null ? null : toComparisonRun(job);
}
