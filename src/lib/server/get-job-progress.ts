import 'server-only';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import type { JobDto } from '@/lib/jobs-dto';
import { parseInput } from '@/lib/parse-input';
import { hasPermission } from '@/lib/permissions';
import { recordAuditEvent } from './audit';
import { requireActor } from './authorization';
import { getJob, type JobRecord, toJobDto } from './jobs';
import type { RequestContext } from './request-context';
import type { SessionUser } from './session';

// Postgres' uuid accepts any hex in the 8-4-4-4-12 form; z.guid() checks exactly that, so a malformed id is
// a 400 here rather than a database error (a 500) later.
const jobIdInputSchema = z.object({ id: z.guid({ error: 'id must be a job id (a UUID such as 0b6c2f0e-…).' }) });

/**
 * A stored job the actor may see: its creator, or a role that may view any job. Someone else's job, a job of
 * another kind than `kind`, and a missing one are all answered alike (`notFoundMessage`): whether it exists is
 * not theirs to know. A refusal of someone else's job is audited.
 */
export async function getViewableJob(options: {
  database: Database;
  actor: SessionUser;
  id: string;
  kind?: string;
  notFoundMessage: string;
  request?: Partial<RequestContext>;
}): Promise<JobRecord> {
  const { actor } = options;
  const job = await getJob({ database: options.database, id: options.id });
  if (job === null || (options.kind !== undefined && job.kind !== options.kind)) throw new AppError('not_found', options.notFoundMessage);
  if (job.createdBy !== actor.id && !hasPermission(actor.role, 'jobs:view-any')) {
    await recordAuditEvent(options.database, {
      action: 'job.view',
      outcome: 'denied',
      actorUserId: actor.id,
      targetUserId: job.createdBy,
      ...options.request,
      details: { jobId: job.id, kind: job.kind },
    });
    throw new AppError('not_found', options.notFoundMessage);
  }
  return job;
}

/** A background job's progress for the page that started it. */
export async function getJobProgress(options: {
  database: Database;
  actor: SessionUser | null;
  id: unknown;
  request?: Partial<RequestContext>;
}): Promise<JobDto> {
  const actor = requireActor(options.actor);
  const { id } = parseInput(jobIdInputSchema, { id: options.id }, { label: 'The job id' });
  const job = await getViewableJob({
    database: options.database,
    actor,
    id,
    notFoundMessage: 'There is no such job.',
    request: options.request,
  });
  return toJobDto(job);
}
