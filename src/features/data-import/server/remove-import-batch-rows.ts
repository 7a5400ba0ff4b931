import 'server-only';
import { type SQL, param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type ImportBatchTable, importBatchTables } from '@/lib/domain/import-batches';

/** Rows deleted per transaction when an undo runs as a background job. */
export const undoChunkSize = 1000;

/**
 * Tables that refer to a patient or a product. A row that something still refers to is kept, even when every
 * batch that delivered it is undone (a message sent to the patient, a dose confirmed through the API, a trial
 * enrolment): deleting it would cascade into data no import brought. A test compares these lists with the
 * foreign keys of the database, so a new table that refers to patients cannot be forgotten here.
 */
export const tablesReferringToPatients = [
  'consent_events',
  'dispensings',
  'dose_events',
  'messages',
  'patient_persona_posteriors',
  'policy_decisions',
  'regimens',
  'risk_contacts',
  'risk_scores',
  'survey_message_chunks',
  'survey_responses',
  'trial_enrolments',
  'trial_screenings',
  'webhook_events',
] as const;
export const tablesReferringToProducts = ['dispensings', 'dose_events', 'regimens'] as const;
const tablesKeyedBySource = ['dispensings', 'dose_events', 'messages', 'patients', 'regimens'] as const;

const none = (tables: readonly string[], condition: SQL) =>
  sql.join(
    tables.map((name) => sql`not exists (select 1 from ${sql.identifier(name)} x where ${condition})`),
    sql` and `,
  );

/** Per kind of row: its table, whether its id is a uuid, and when it may be deleted besides its batches (alias `p`). */
const physicalTables: Record<ImportBatchTable, { name: string; uuid: boolean; deletable: SQL }> = {
  doseEvents: { name: 'dose_events', uuid: true, deletable: sql`true` },
  dispensings: { name: 'dispensings', uuid: true, deletable: sql`true` },
  regimens: { name: 'regimens', uuid: true, deletable: sql`true` },
  patients: {
    name: 'patients',
    uuid: true,
    // A patient linked to an account is someone's own record: never removed by an undo.
    deletable: sql`p.user_id is null and ${none(tablesReferringToPatients, sql`x.patient_id = p.id`)}`,
  },
  products: {
    name: 'products',
    uuid: false,
    // A product someone has since given a company belongs to the catalogue now.
    deletable: sql`p.company_id is null and ${none(tablesReferringToProducts, sql`x.product_id = p.id`)}`,
  },
  dataSources: {
    name: 'data_sources',
    uuid: false,
    deletable: sql`p.api_key_hash is null and ${none(tablesKeyedBySource, sql`x.source = p.id`)}`,
  },
};

/**
 * The rows of `table` the batch delivered that an undo of it deletes: some batch created the row (a row that was
 * there before any batch only ever matched is never deleted), no other batch that delivered it is live (not
 * undoing or undone), and nothing outside the batches still refers to it. `rowIds` narrows to one chunk.
 */
function removableRows(options: { batchId: string; table: ImportBatchTable; rowIds?: string[] }): SQL {
  const { batchId, table } = options;
  const physical = physicalTables[table];
  // CASE first, then the cast: only this table's ids (uuid or not) are ever cast.
  const rowId = physical.uuid ? sql`(case when r.table_name = ${table} then r.row_id end)::uuid` : sql`r.row_id`;
  return sql`
    select r.row_id from import_batch_rows r
    where r.batch_id = ${batchId} and r.table_name = ${table}
      ${options.rowIds === undefined ? sql`` : sql`and r.row_id = any(${param(options.rowIds)}::text[])`}
      and exists (select 1 from import_batch_rows c where c.table_name = ${table} and c.row_id = r.row_id and c.created)
      and not exists (
        select 1 from import_batch_rows o join import_batches b on b.id = o.batch_id
        where o.table_name = ${table} and o.row_id = r.row_id and o.batch_id <> ${batchId} and b.status not in ('undoing', 'undone')
      )
      and exists (select 1 from ${sql.identifier(physical.name)} p where p.id = ${rowId} and ${physical.deletable})`;
}

/** Deletes one chunk of removable rows, forgets their row records (no live batch needs them) and adds to the batch's removed counts. */
async function removeChunk(database: Database, options: { batchId: string; table: ImportBatchTable; rowIds: string[] }): Promise<number> {
  const physical = physicalTables[options.table];
  const id = physical.uuid ? sql`row_id::uuid` : sql`row_id`;
  const result = (await database.execute(sql`
    with removable as (${removableRows(options)}),
    deleted as (
      delete from ${sql.identifier(physical.name)} p where p.id in (select ${id} from removable) returning p.id::text as row_id
    ),
    forgotten as (
      delete from import_batch_rows where table_name = ${options.table} and row_id in (select row_id from deleted)
    ),
    noted as (
      update import_batches
      set removed_rows = coalesce(removed_rows, '{}'::jsonb)
        || jsonb_build_object(${options.table}::text, coalesce((removed_rows ->> ${options.table}::text)::int, 0) + (select count(*) from deleted))
      where id = ${options.batchId} and exists (select 1 from deleted)
    )
    select count(*)::int as removed from deleted`)) as unknown as { rows: { removed: number }[] };
  return result.rows[0]?.removed ?? 0;
}

/**
 * Deletes what an undo of the batch removes, table by table (rows that refer to others first), a chunk of row
 * records at a time. `runChunk` decides the transactions: one around everything (small batches), or one per
 * chunk (a background job; the batch is already marked undoing, so running this again continues where it stopped).
 */
export async function removeImportBatchRows(options: {
  database: Database;
  batchId: string;
  runChunk: <T>(work: (transaction: Database) => Promise<T>) => Promise<T>;
  onProgress?: (done: number, total: number) => Promise<void> | void;
}): Promise<void> {
  const { database, batchId } = options;
  const totalResult = (await database.execute(
    sql`select count(*)::int as rows from import_batch_rows where batch_id = ${batchId}`,
  )) as unknown as { rows: { rows: number }[] };
  const total = totalResult.rows[0]?.rows ?? 0;
  let done = 0;
  for (const table of importBatchTables) {
    let after = '';
    for (;;) {
      const page = (await database.execute(sql`
        select row_id from import_batch_rows
        where batch_id = ${batchId} and table_name = ${table} and row_id > ${after}
        order by row_id limit ${undoChunkSize}`)) as unknown as { rows: { row_id: string }[] };
      const rowIds = page.rows.map((row) => row.row_id);
      if (rowIds.length === 0) break;
      after = rowIds.at(-1)!;
      await options.runChunk((transaction) => removeChunk(transaction, { batchId, table, rowIds }));
      done += rowIds.length;
      await options.onProgress?.(Math.min(done, total), total);
    }
  }
}
