import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { importBatches } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { hasPermission } from '@/lib/permissions';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';

export type BatchActor = Pick<SessionUser, 'id' | 'role'>;

const notAllowed = 'Only administrators, and the clinician who ran an import, can see or remove it.';

/** Who may see batches at all (administrators: every batch; clinicians: their own); others are refused, audited. */
export async function authoriseBatchViewer(options: {
  database: Database;
  actor: BatchActor | null;
  action: string;
  request?: Partial<RequestContext>;
}): Promise<{ actor: BatchActor; seesEveryBatch: boolean }> {
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'data:import',
    message: notAllowed,
    audit: { database: options.database, action: options.action, ...options.request },
  });
  return { actor, seesEveryBatch: hasPermission(actor.role, 'data:import-batches:any') };
}

/**
 * The batch, if the actor may see and undo it: an administrator any batch, a clinician only one they ran
 * (another's is refused and audited, like every refusal). The id is checked first (a clear error naming it).
 */
export async function findAuthorisedBatch(options: {
  database: Database;
  actor: BatchActor | null;
  batchId: unknown;
  action: string;
  request?: Partial<RequestContext>;
}) {
  const { actor, seesEveryBatch } = await authoriseBatchViewer(options);
  const batchId = parseInput(z.string().uuid('Choose an import batch.'), options.batchId, { label: 'The import batch' });
  const [batch] = await options.database
    .select({ id: importBatches.id, createdBy: importBatches.createdBy, status: importBatches.status })
    .from(importBatches)
    .where(eq(importBatches.id, batchId));
  if (batch === undefined) throw new AppError('not_found', 'No import batch has this id.');
  if (!seesEveryBatch && batch.createdBy !== actor.id) {
    await recordAuditEvent(options.database, {
      action: options.action,
      outcome: 'denied',
      actorUserId: actor.id,
      ...options.request,
      details: { reason: 'not the import of this user', batchId },
    });
    throw new AppError('forbidden', notAllowed);
  }
  return batch;
}
