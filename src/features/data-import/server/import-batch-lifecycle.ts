import 'server-only';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { importBatches } from '@/db/schema';
import type { ImportBatchCounts, ImportBatchTable } from '@/lib/domain/import-batches';
import { AppError } from '@/lib/errors';
import type { ImportActor } from './authorise-import';
import { currentImportBatchContext } from './import-batch-context';

/**
 * Opens the batch an import writes under: a new one, or, for a background job run again (resumed after a
 * restart, retried after an error), the job's own batch, so its rows stay one batch. A job whose batch was
 * undone in between stops, even when the undo commits while this reads: resuming would leave a batch with holes.
 */
export async function openImportBatch(options: {
  database: Database;
  actor: ImportActor;
  format: 'fhir' | 'csv';
  source: string;
}): Promise<string> {
  const context = currentImportBatchContext();
  const actor = options.actor;
  const values = {
    format: options.format,
    source: options.source,
    fileName: context.fileName ?? null,
    via: actor === 'operator' ? ('cli' as const) : ('web' as const),
    createdBy: actor === 'operator' ? null : (actor?.id ?? null),
    jobId: context.jobId ?? null,
  };
  if (values.jobId === null) {
    const [created] = await options.database.insert(importBatches).values(values).returning({ id: importBatches.id });
    return created!.id;
  }
  await options.database.insert(importBatches).values(values).onConflictDoNothing({ target: importBatches.jobId });
  const [batch] = await options.database
    .select({ id: importBatches.id, status: importBatches.status })
    .from(importBatches)
    .where(eq(importBatches.jobId, values.jobId));
  if (batch === undefined) throw new Error('The import batch of a job is missing after it was written.');
  const removed = () =>
    new AppError('conflict', 'This import was removed while it was waiting to continue. Upload the file again to import it.');
  if (batch.status === 'undoing' || batch.status === 'undone') throw removed();
  // Conditional, not on the status read above: an undo that locked the row before this read committed after it,
  // and PostgreSQL re-checks this WHERE on the row it waited for, so an undone batch is never reopened.
  const [reopened] = await options.database
    .update(importBatches)
    .set({ status: 'running', finishedAt: null })
    .where(and(eq(importBatches.id, batch.id), notInArray(importBatches.status, ['undoing', 'undone'])))
    .returning({ id: importBatches.id });
  if (reopened === undefined) throw removed();
  return batch.id;
}

/** Rows a batch created and delivered, per table, from its row records. */
export async function countBatchRows(
  database: Database,
  batchId: string,
): Promise<{ createdRows: ImportBatchCounts; deliveredRows: ImportBatchCounts }> {
  const result = (await database.execute(sql`
    select table_name, count(*) filter (where created)::int as created, count(*)::int as delivered
    from import_batch_rows where batch_id = ${batchId} group by table_name`)) as unknown as {
    rows: { table_name: ImportBatchTable; created: number; delivered: number }[];
  };
  const createdRows: ImportBatchCounts = {};
  const deliveredRows: ImportBatchCounts = {};
  for (const row of result.rows) {
    if (row.created > 0) createdRows[row.table_name] = row.created;
    deliveredRows[row.table_name] = row.delivered;
  }
  return { createdRows, deliveredRows };
}

/** Closes a batch: completed with its report's figures, or failed (what it committed stays, and can be undone). */
export async function closeImportBatch(options: {
  database: Database;
  batchId: string;
  status: 'completed' | 'failed';
  report?: { resources: number; skipped: number };
}): Promise<void> {
  const counts = await countBatchRows(options.database, options.batchId);
  await options.database
    .update(importBatches)
    .set({
      status: options.status,
      finishedAt: new Date(),
      ...counts,
      ...(options.report === undefined ? {} : { resources: options.report.resources, skipped: options.report.skipped }),
    })
    .where(eq(importBatches.id, options.batchId));
}
