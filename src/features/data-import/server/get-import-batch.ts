import 'server-only';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { importBatches } from '@/db/schema';
import type { ImportBatchCounts } from '@/lib/domain/import-batches';
import type { RequestContext } from '@/lib/server/request-context';
import type { ImportBatchDetails } from '../import-batch-dto';
import { type BatchActor, findAuthorisedBatch } from './authorise-import-batch';
import { selectImportBatchSummaries, toImportBatchSummary } from './import-batch-summary';
import { removeImportBatchRows } from './remove-import-batch-rows';
import { maximumRowsUndoneAtOnce } from './undo-import-batch';

/** Rows of each kind shown as a sample. */
const sampleSize = 5;

const total = (counts: ImportBatchCounts) => Object.values(counts).reduce((sum, count) => sum + (count ?? 0), 0);

/**
 * Exactly what an undo would delete now: the undo itself, run in a transaction that is rolled back (a patient
 * goes only once the fills that refer to it go, so counting per table alone would not tell). Batches too large
 * to undo in one transaction are not rehearsed (null): it would take as long as the undo.
 */
/** Thrown to roll the rehearsal back (our own class: drizzle's rollback error is not one class across server bundles). */
class RehearsalOver extends Error {}

async function rehearseUndo(database: Database, batchId: string, deliveredRows: number): Promise<ImportBatchCounts | null> {
  if (deliveredRows > maximumRowsUndoneAtOnce) return null;
  let removed: ImportBatchCounts = {};
  try {
    await database.transaction(async (transaction) => {
      await transaction.update(importBatches).set({ status: 'undoing' }).where(eq(importBatches.id, batchId));
      await removeImportBatchRows({ database: transaction, batchId, runChunk: (work) => work(transaction) });
      const [batch] = await transaction
        .select({ removedRows: importBatches.removedRows })
        .from(importBatches)
        .where(eq(importBatches.id, batchId));
      removed = batch?.removedRows ?? {};
      throw new RehearsalOver();
    });
  } catch (error) {
    if (!(error instanceof RehearsalOver)) throw error;
  }
  return Object.fromEntries(Object.entries(removed).filter(([, count]) => count > 0));
}

/**
 * What a batch added (counts per table and the first rows it created that are still there, with pseudonyms,
 * never names or source identifiers) and what removing it would delete now — the confirmation before an undo.
 */
export async function getImportBatch(options: {
  database: Database;
  actor: BatchActor | null;
  batchId: unknown;
  request?: Partial<RequestContext>;
}): Promise<ImportBatchDetails> {
  const { database } = options;
  const { id } = await findAuthorisedBatch({ ...options, action: 'data-import.batch' });
  const [row] = await selectImportBatchSummaries(database).where(eq(importBatches.id, id));
  const batch = toImportBatchSummary(row!);
  const removable =
    batch.status === 'undone' || batch.status === 'running' ? {} : await rehearseUndo(database, id, total(batch.deliveredRows));
  // Rows of this batch's own kind, created by it: `r` its row records, `p` the row (uuid ids cast only for their table).
  const created = (table: string, physical: string) => sql`
    from import_batch_rows r
    join ${sql.identifier(physical)} p on p.id = (case when r.table_name = ${table} then r.row_id end)::uuid
    join patients on patients.id = p.patient_id
    left join products on products.id = p.product_id
    where r.batch_id = ${id} and r.table_name = ${table} and r.created`;
  const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await database.execute(query)) as unknown as { rows: T[] }).rows;
  const [patients, dispensings, regimens, doseEvents, products] = await Promise.all([
    rowsOf<ImportBatchDetails['sample']['patients'][number]>(sql`
      select p.pseudonym, p.sex, p.age_band as "ageBand"
      from import_batch_rows r join patients p on p.id = (case when r.table_name = 'patients' then r.row_id end)::uuid
      where r.batch_id = ${id} and r.table_name = 'patients' and r.created
      order by p.pseudonym limit ${sampleSize}`),
    rowsOf<ImportBatchDetails['sample']['dispensings'][number]>(sql`
      select patients.pseudonym, coalesce(products.name, p.medication_code) as medication, p.dispensed_on::text as "dispensedOn",
        p.days_supply as "daysSupply"
      ${created('dispensings', 'dispensings')} order by p.dispensed_on, patients.pseudonym limit ${sampleSize}`),
    rowsOf<ImportBatchDetails['sample']['regimens'][number]>(sql`
      select patients.pseudonym, coalesce(products.name, p.medication_code) as medication, p.start_date::text as "startDate",
        p.end_date::text as "endDate", p.doses_per_day as "dosesPerDay"
      ${created('regimens', 'regimens')} order by p.start_date, patients.pseudonym limit ${sampleSize}`),
    rowsOf<ImportBatchDetails['sample']['doseEvents'][number]>(sql`
      select patients.pseudonym, products.name as medication, to_char(p.scheduled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "scheduledAt",
        p.status
      ${created('doseEvents', 'dose_events')} order by p.scheduled_at, patients.pseudonym limit ${sampleSize}`),
    rowsOf<ImportBatchDetails['sample']['products'][number]>(sql`
      select p.id, p.name from import_batch_rows r join products p on p.id = r.row_id
      where r.batch_id = ${id} and r.table_name = 'products' and r.created order by p.name limit ${sampleSize}`),
  ]);
  return {
    batch,
    removable,
    kept: batch.status === 'undone' || removable === null ? null : Math.max(0, total(batch.deliveredRows) - total(removable)),
    sample: { patients, dispensings, regimens, doseEvents, products },
  };
}
