/**
 * Reads one lab run with its summary (the what-if page's `?run=<id>`). Any signed-in user may: a run's
 * settings and summary are synthetic (a simulated cohort), with nothing about a real patient or who asked.
 */
import 'server-only';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import { getJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import { labRunJobKind, type LabRun } from '../schemas';
import { toLabRun } from './to-lab-run';

// z.guid() accepts exactly Postgres' uuid form, so a malformed id is a field error, never a database error.
export const labRunIdSchema = z.object({ run: z.guid({ error: 'run must be a lab run id (a UUID such as 0b6c2f0e-…).' }) });

export const noSuchLabRun = 'There is no lab run with this id.';

export async function getLabRun(options: { database: Database; actor: SessionUser | null; id: unknown }): Promise<LabRun> {
  requireActor(options.actor);
  const { run: id } = parseInput(labRunIdSchema, { run: options.id }, { label: 'The lab run id' });
  const job = await getJob({ database: options.database, id });
  // Another kind of job (an import, a comparison) is no lab run.
  if (job === null || job.kind !== labRunJobKind) throw new AppError('not_found', noSuchLabRun);
  return toLabRun(job);
}
