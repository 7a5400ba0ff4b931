import 'server-only';
import { param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import type { ImportBatchTable } from '@/lib/domain/import-batches';

/**
 * Imports take this advisory lock shared, in each chunk's transaction; an undo takes it exclusively in each of
 * its own. So an undo never decides "no live batch delivers this row" while an import's chunk that delivers it
 * is still uncommitted.
 */
export const importBatchLockId = 7_263_010;

export async function lockAgainstUndo(transaction: Database): Promise<void> {
  await transaction.execute(sql`select pg_advisory_xact_lock_shared(${importBatchLockId})`);
}

export async function lockForUndo(transaction: Database): Promise<void> {
  await transaction.execute(sql`select pg_advisory_xact_lock(${importBatchLockId})`);
}

/** Tables whose rows an import keys by (source, source_record_id). */
export const keyedTables = { regimens: 'regimens', dispensings: 'dispensings', doseEvents: 'dose_events' } as const;

/** Records rows a batch delivered; a row recorded as created stays so when a later run of the batch finds it present. */
export async function recordDeliveredRows(
  database: Database,
  options: { batchId: string; table: ImportBatchTable; rows: { id: string; created: boolean }[] },
): Promise<void> {
  if (options.rows.length === 0) return;
  await database.execute(sql`
    insert into import_batch_rows (batch_id, table_name, row_id, created)
    select ${options.batchId}::uuid, ${options.table}, row_id, created
    from unnest(${param(options.rows.map((row) => row.id))}::text[], ${param(options.rows.map((row) => row.created))}::boolean[]) as delivered (row_id, created)
    on conflict (batch_id, table_name, row_id) do update set created = import_batch_rows.created or excluded.created`);
}

/**
 * Records the rows of one chunk of a keyed table: every row with one of the chunk's keys (inserted now or
 * already there), created when its key is among those the INSERT returned.
 */
export async function recordDeliveredKeyedRows(
  database: Database,
  options: { batchId: string; table: keyof typeof keyedTables; source: string; keys: string[]; createdKeys: string[] },
): Promise<void> {
  if (options.keys.length === 0) return;
  const table = sql.identifier(keyedTables[options.table]);
  await database.execute(sql`
    insert into import_batch_rows (batch_id, table_name, row_id, created)
    select ${options.batchId}::uuid, ${options.table}, id::text, source_record_id = any(${param(options.createdKeys)}::text[])
    from ${table}
    where source = ${options.source} and source_record_id = any(${param(options.keys)}::text[])
    on conflict (batch_id, table_name, row_id) do update set created = import_batch_rows.created or excluded.created`);
}
