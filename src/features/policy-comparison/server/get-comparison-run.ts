/**
 * Reads one comparison run (a stored `policy-comparison` job) for the page's `?run=<id>` address, so a run
 * survives the page being left, reloaded or bookmarked: its progress while it runs, then its stored result or
 * why it failed. Only the user who started it, or a role that may view any job, may read it; anyone else is
 * answered exactly as for an id that does not exist (whether it exists is not theirs to know), and audited.
 */
import 'server-only';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import { getViewableJob } from '@/lib/server/get-job-progress';
import type { JobRecord } from '@/lib/server/jobs';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { type ComparisonRun, comparisonSettingsSchema, type PolicyComparison } from '../schemas';
import { comparisonJobKind } from './start-policy-comparison';

// z.guid() accepts exactly Postgres' uuid form, so a malformed id is a field error, never a database error.
const runIdSchema = z.object({ run: z.guid({ error: 'run must be a comparison run id (a UUID such as 0b6c2f0e-…).' }) });

const noSuchRun = 'There is no comparison run with this id that you can see. It may have been started by someone else.';

/** The page's view of a comparison job; the payload is only its settings (no patient data), the result the comparison. */
export function toComparisonRun(job: JobRecord): ComparisonRun {
  const settings = comparisonSettingsSchema.safeParse(job.payload);
  const result = job.status === 'succeeded' ? job.result : null;
  return {
    id: job.id,
    status: job.status,
    settings: settings.success ? settings.data : null,
    progressDone: job.progressDone,
    progressTotal: job.progressTotal,
    rate: job.rate,
    // Written by this feature's job handler (priceComparison), so its shape is the comparison's.
    comparison: result !== null && Array.isArray(result.policies) ? (result as unknown as PolicyComparison) : null,
    error: job.error,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
  };
}

export async function getComparisonRun(options: {
  database: Database;
  actor: SessionUser | null;
  id: unknown;
  request?: Partial<RequestContext>;
}): Promise<ComparisonRun> {
  const actor = requireActor(options.actor);
  const { run: id } = parseInput(runIdSchema, { run: options.id }, { label: 'The run id' });
  // Another kind of job (an import) is no comparison run, whoever started it.
  const job = await getViewableJob({
    database: options.database,
    actor,
    id,
    kind: comparisonJobKind,
    notFoundMessage: noSuchRun,
    request: options.request,
  });
  return toComparisonRun(job);
}
