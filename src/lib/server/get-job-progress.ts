import 'server-only';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import type { JobDto } from '@/lib/jobs-dto';
import { parseInput } from '@/lib/parse-input';
import { hasPermission } from '@/lib/permissions';
import { recordAuditEvent } from './audit';
import { requireActor } from './authorization';
import { getJob, toJobDto } from './jobs';
import type { RequestContext } from './request-context';
import type { SessionUser } from './session';

// Postgres' uuid accepts any hex in the 8-4-4-4-12 form; z.guid() checks exactly that, so a malformed id is
// a 400 here rather than a database error (a 500) later.
const jobIdInputSchema = z.object({ id: z.guid({ error: 'id must be a job id (a UUID such as 0b6c2f0e-…).' }) });

/** A background job's progress for the page that started it: its creator, or a role that may view any job. */
export async function getJobProgress(options: {
  database: Database;
  actor: SessionUser | null;
  id: unknown;
  request?: Partial<RequestContext>;
}): Promise<JobDto> {
  const actor = requireActor(options.actor);
  const { id } = parseInput(jobIdInputSchema, { id: options.id }, { label: 'The job id' });
  const job = await getJob({ database: options.database, id });
  // Someone else's job is answered like a missing one: whether it exists is not theirs to know.
  if (job === null) throw new AppError('not_found', 'There is no such job.');
  if (job.createdBy !== actor.id && !hasPermission(actor.role, 'jobs:view-any')) {
    await recordAuditEvent(options.database, {
      action: 'job.view',
      outcome: 'denied',
      actorUserId: actor.id,
      targetUserId: job.createdBy,
      ...options.request,
      details: { jobId: job.id, kind: job.kind },
    });
    throw new AppError('not_found', 'There is no such job.');
  }
  return toJobDto(job);
}
