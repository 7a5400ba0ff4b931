/** A lab run's progress without its summary: what a page polls once a second while the run is under way. */
import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { requireActor } from '@/lib/server/authorization';
import { getJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import { labRunJobKind, type LabRunProgress } from '../schemas';
import { labRunIdSchema, noSuchLabRun } from './get-lab-run';
import { toLabRunProgress } from './to-lab-run';

export async function getLabRunProgress(options: { database: Database; actor: SessionUser | null; id: unknown }): Promise<LabRunProgress> {
  requireActor(options.actor);
  const { run: id } = parseInput(labRunIdSchema, { run: options.id }, { label: 'The lab run id' });
  const job = await getJob({ database: options.database, id });
  if (job === null || job.kind !== labRunJobKind) throw new AppError('not_found', noSuchLabRun);
  return toLabRunProgress(job);
}
