/**
 * What the browser and the server share about import batches (docs/decisions/010): the tables a batch records
 * rows of, in the order an undo deletes them (rows that refer to others first), and a batch's states. Names are
 * camelCase: the schema's snake_case names must not reach the browser (decision 007).
 */
export const importBatchTables = ['doseEvents', 'dispensings', 'regimens', 'patients', 'products', 'dataSources'] as const;
export type ImportBatchTable = (typeof importBatchTables)[number];

/** running → completed | failed (what it committed stays, and can be undone) → undoing → undone (kept in the list). */
export const importBatchStatuses = ['running', 'completed', 'failed', 'undoing', 'undone'] as const;
export type ImportBatchStatus = (typeof importBatchStatuses)[number];

/** Rows per table, by table name. */
export type ImportBatchCounts = Partial<Record<ImportBatchTable, number>>;
