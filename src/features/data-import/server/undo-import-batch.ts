import 'server-only';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { importBatches } from '@/db/schema';
import type { ImportBatchCounts, ImportBatchStatus } from '@/lib/domain/import-batches';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { enqueueJob } from '@/lib/server/jobs';
import type { RequestContext } from '@/lib/server/request-context';
import type { UndoImportBatchResult } from '../import-batch-dto';
import { type BatchActor, findAuthorisedBatch } from './authorise-import-batch';
import { lockForUndo } from './import-batch-rows';
import { removeImportBatchRows } from './remove-import-batch-rows';

/** Background-job kind of an undo too large for one transaction (queue `imports`, one at a time with imports). */
export const importUndoJobKind = 'import-undo';

/**
 * Row records up to which an undo runs in one transaction, in the request. Beyond it a background job deletes
 * a chunk per transaction with progress: one long transaction would hold the embedded database's only
 * connection (decision 004).
 */
export const maximumRowsUndoneAtOnce = 5000;

async function markUndone(database: Database, batchId: string, actorId: string | null): Promise<ImportBatchCounts> {
  const [batch] = await database
    .update(importBatches)
    .set({
      status: 'undone',
      undoneAt: new Date(),
      undoneBy: actorId,
      removedRows: sql`coalesce(${importBatches.removedRows}, '{}'::jsonb)`,
    })
    .where(eq(importBatches.id, batchId))
    .returning({ removedRows: importBatches.removedRows });
  return batch?.removedRows ?? {};
}

/**
 * The answer when the batch's status changed between the undo's first read and its update: a concurrent undo
 * (a double click) did the work, or the import's job retried and reopened the batch, which then is not removed.
 */
function answerChangedBatch(
  batchId: string,
  current: { status: ImportBatchStatus; undoJobId: string | null; removedRows: ImportBatchCounts | null } | undefined,
): UndoImportBatchResult {
  if (current?.status === 'undone') return { batchId, status: 'undone', jobId: null, removedRows: current.removedRows ?? {} };
  if (current?.status === 'undoing' && current.undoJobId !== null)
    return { batchId, status: 'undoing', jobId: current.undoJobId, removedRows: current.removedRows ?? {} };
  if (current?.status === 'running') throw new AppError('conflict', 'This import is still running. Remove it once it has finished.');
  throw new AppError('conflict', 'This import changed while it was being removed. Try again.');
}

/**
 * Removes an import batch: deletes exactly the rows it created that no other live batch also delivered and
 * nothing else refers to (decision 013), and marks it undone (it stays in the list). An administrator may undo
 * any batch, a clinician only one they ran; other attempts are refused and audited. Undoing an undone batch
 * changes nothing; a batch still running cannot be undone. Small batches go in one transaction; larger ones
 * as a background job whose progress the page follows.
 */
export async function undoImportBatch(options: {
  database: Database;
  actor: BatchActor | null;
  batchId: unknown;
  request?: Partial<RequestContext>;
  /** Tests lower it to exercise the background path. */
  maximumRowsAtOnce?: number;
}): Promise<UndoImportBatchResult> {
  const { database } = options;
  const batch = await findAuthorisedBatch({ ...options, action: 'data-import.undo' });
  const actorId = options.actor!.id;
  const [state] = await database
    .select({ status: importBatches.status, undoJobId: importBatches.undoJobId, removedRows: importBatches.removedRows })
    .from(importBatches)
    .where(eq(importBatches.id, batch.id));
  if (state!.status === 'undone') return { batchId: batch.id, status: 'undone', jobId: null, removedRows: state!.removedRows ?? {} };
  if (state!.status === 'undoing' && state!.undoJobId !== null)
    return { batchId: batch.id, status: 'undoing', jobId: state!.undoJobId, removedRows: state!.removedRows ?? {} };
  if (state!.status === 'running') throw new AppError('conflict', 'This import is still running. Remove it once it has finished.');

  const rowsResult = (await database.execute(
    sql`select count(*)::int as rows from import_batch_rows where batch_id = ${batch.id}`,
  )) as unknown as { rows: { rows: number }[] };
  const rows = rowsResult.rows[0]?.rows ?? 0;

  if (rows > (options.maximumRowsAtOnce ?? maximumRowsUndoneAtOnce)) {
    // Only from the status read above, with the job in the same transaction: a retry of the import that reopened
    // the batch in between keeps it (and no undo job is left queued to delete under a running import).
    const jobId = await database.transaction(async (transaction) => {
      const [marked] = await transaction
        .update(importBatches)
        .set({ status: 'undoing', undoneBy: actorId })
        .where(and(eq(importBatches.id, batch.id), eq(importBatches.status, state!.status)))
        .returning({ id: importBatches.id });
      if (marked === undefined) return null;
      const { id } = await enqueueJob({
        database: transaction,
        kind: importUndoJobKind,
        payload: { batchId: batch.id, request: options.request ?? {} },
        createdBy: actorId,
        dedupeKey: `${importUndoJobKind}:${batch.id}`,
      });
      await transaction.update(importBatches).set({ undoJobId: id }).where(eq(importBatches.id, batch.id));
      return id;
    });
    if (jobId === null) {
      const [current] = await database
        .select({ status: importBatches.status, undoJobId: importBatches.undoJobId, removedRows: importBatches.removedRows })
        .from(importBatches)
        .where(eq(importBatches.id, batch.id));
      return answerChangedBatch(batch.id, current);
    }
    await recordAuditEvent(database, {
      action: 'data-import.undo',
      outcome: 'success',
      actorUserId: actorId,
      ...options.request,
      details: { batchId: batch.id, rows, jobId, step: 'queued' },
    });
    return { batchId: batch.id, status: 'undoing', jobId, removedRows: {} };
  }

  const outcome = await database.transaction(async (transaction) => {
    await lockForUndo(transaction);
    // Two requests at once (a double click): the second finds the first's work done and changes nothing.
    // Its job retrying in between reopened the batch (running): it is not removed, and the answer says so.
    const [current] = await transaction
      .select({ status: importBatches.status, undoJobId: importBatches.undoJobId, removedRows: importBatches.removedRows })
      .from(importBatches)
      .where(eq(importBatches.id, batch.id))
      .for('update');
    if (current?.status !== state!.status) return { answer: answerChangedBatch(batch.id, current), removedRows: null };
    await transaction.update(importBatches).set({ status: 'undoing', undoneBy: actorId }).where(eq(importBatches.id, batch.id));
    await removeImportBatchRows({ database: transaction, batchId: batch.id, runChunk: (work) => work(transaction) });
    return { answer: null, removedRows: await markUndone(transaction, batch.id, actorId) };
  });
  if (outcome.answer !== null) return outcome.answer;
  const { removedRows } = outcome;
  await recordAuditEvent(database, {
    action: 'data-import.undo',
    outcome: 'success',
    actorUserId: actorId,
    ...options.request,
    details: { batchId: batch.id, rows, removed: removedRows },
  });
  return { batchId: batch.id, status: 'undone', jobId: null, removedRows };
}

/**
 * The background half of a large undo (the job queued by undoImportBatch): deletes a chunk per transaction,
 * reporting progress; run again after a restart, it continues with what is left. Audits the completion in the
 * name of whoever asked for the undo.
 */
export async function completeImportBatchUndo(options: {
  database: Database;
  batchId: string;
  request?: Partial<RequestContext>;
  onProgress?: (done: number, total: number) => Promise<void> | void;
}): Promise<{ removedRows: ImportBatchCounts }> {
  const { database, batchId } = options;
  const [batch] = await database
    .select({ status: importBatches.status, undoneBy: importBatches.undoneBy, removedRows: importBatches.removedRows })
    .from(importBatches)
    .where(eq(importBatches.id, batchId));
  if (batch === undefined) throw new AppError('not_found', 'The import batch to remove no longer exists.');
  if (batch.status === 'undone') return { removedRows: batch.removedRows ?? {} };
  await removeImportBatchRows({
    database,
    batchId,
    runChunk: (work) =>
      database.transaction(async (transaction) => {
        await lockForUndo(transaction);
        return work(transaction);
      }),
    onProgress: options.onProgress,
  });
  const removedRows = await markUndone(database, batchId, batch.undoneBy);
  await recordAuditEvent(database, {
    action: 'data-import.undo',
    outcome: 'success',
    actorUserId: batch.undoneBy,
    ...options.request,
    details: { batchId, removed: removedRows, step: 'completed' },
  });
  return { removedRows };
}
