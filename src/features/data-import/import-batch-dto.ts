import type { ImportBatchCounts, ImportBatchStatus } from '@/lib/domain/import-batches';

/** One import batch as the data-sources page lists it (no patient data: counts only). */
export type ImportBatchSummary = {
  id: string;
  format: 'fhir' | 'csv';
  source: string;
  fileName: string | null;
  via: 'web' | 'cli';
  /** The name of the user who ran it, or null for the command line. */
  ranBy: string | null;
  startedAt: string;
  finishedAt: string | null;
  status: ImportBatchStatus;
  /** Entries of the file (rows of a CSV, resources of a FHIR file) and those skipped; null until it finishes. */
  resources: number | null;
  skipped: number | null;
  createdRows: ImportBatchCounts;
  deliveredRows: ImportBatchCounts;
  removedRows: ImportBatchCounts | null;
  undoneAt: string | null;
  /** The background job of an undo in progress. */
  undoJobId: string | null;
};

/** What a batch added and what removing it would delete now: counts per table and a sample of rows (pseudonyms only). */
export type ImportBatchDetails = {
  batch: ImportBatchSummary;
  /** Rows an undo would delete now, per table (null: too large a batch to rehearse; at most its created rows). */
  removable: ImportBatchCounts | null;
  /** Rows the batch delivered that an undo keeps: another live import delivered them too, or other data refers to them. */
  kept: number | null;
  sample: {
    patients: { pseudonym: string; sex: string | null; ageBand: string | null }[];
    dispensings: { pseudonym: string; medication: string | null; dispensedOn: string; daysSupply: number }[];
    regimens: { pseudonym: string; medication: string | null; startDate: string; endDate: string | null; dosesPerDay: number }[];
    doseEvents: { pseudonym: string; medication: string | null; scheduledAt: string; status: string }[];
    products: { id: string; name: string }[];
  };
};

/** What an undo answers: done at once (one transaction), or running as a background job to follow. */
export type UndoImportBatchResult = {
  batchId: string;
  status: 'undone' | 'undoing';
  jobId: string | null;
  removedRows: ImportBatchCounts;
};
