/**
 * Starts a lab run, or finds the one already stored for the same cohort, seed and settings: the stored job's
 * result is the cache, so opening a lab page (which asks for the default run) costs one lookup after the
 * first time, and two people asking for the same what-if share one run. A run that failed is started
 * afresh once it has been failed a while (a failure right now is shown, not retried on every page view).
 */
import 'server-only';
import { and, desc, eq, like } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import { enqueueJob, getJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import { labRunInputSchema, labRunJobKind, labRunKey, type LabRun } from '../schemas';
import { toLabRun } from './to-lab-run';

/** How long a failed run is shown before the same settings start a new one. */
export const failedRunRetryMilliseconds = 10 * 60_000;

export async function startLabRun(options: { database: Database; actor: SessionUser | null; input: unknown; now?: Date }): Promise<LabRun> {
  const actor = requireActor(options.actor);
  const input = parseInput(labRunInputSchema, options.input, { label: 'The lab run' });
  const now = options.now ?? new Date();
  // One dedupe key per attempt at these settings: "<kind>:<settings key>#<generation>".
  const prefix = `${labRunJobKind}:${labRunKey(input)}#`;
  const [latest] = await options.database
    .select({ id: jobs.id, status: jobs.status, finishedAt: jobs.finishedAt, dedupeKey: jobs.dedupeKey })
    .from(jobs)
    .where(and(eq(jobs.kind, labRunJobKind), like(jobs.dedupeKey, `${prefix}%`)))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
  const retry =
    latest !== undefined &&
    latest.status === 'failed' &&
    latest.finishedAt !== null &&
    now.getTime() - latest.finishedAt.getTime() > failedRunRetryMilliseconds;
  let id = latest?.id;
  if (latest === undefined || retry) {
    const generation = latest === undefined ? 1 : Number(latest.dedupeKey?.slice(prefix.length) ?? '0') + 1;
    ({ id } = await enqueueJob({
      database: options.database,
      kind: labRunJobKind,
      payload: input,
      createdBy: actor.id,
      dedupeKey: `${prefix}${generation}`,
    }));
  }
  const job = id === undefined ? null : await getJob({ database: options.database, id });
  if (job === null) throw new AppError('internal', 'The lab run could not be stored.');
  return toLabRun(job);
}
