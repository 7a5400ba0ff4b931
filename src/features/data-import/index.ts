/**
 * What other features and routes may use of data-import (DESIGN §4: through a feature's index, never its
 * internals). Server-only: importing it from a client component would pull the database in.
 */
export {
  csvMappingOfSearchParams,
  importContentTypes,
  importFormats,
  importJobKinds,
  importTooLargeHint,
  maximumImportBytes,
  type ImportFormat,
} from './schemas';
export { type ImportActor, authoriseImport } from './server/authorise-import';
export { importDispensingCsv } from './server/import-dispensing-csv';
export { importFhir } from './server/import-fhir';
export { ImportRefusedError } from './server/import-refused';
export { importUndoJobKind } from './server/undo-import-batch';
export { type CsvImportPreview, previewCsvImport } from './server/preview-csv-import';
export { type QueuedImportInput, queueImport } from './server/queue-import';
export { type ImportUpload, readImportUpload } from './server/read-import-upload';
export type { ImportBatchDetails, ImportBatchSummary, UndoImportBatchResult } from './import-batch-dto';
export { getImportBatch } from './server/get-import-batch';
export { withImportBatchContext } from './server/import-batch-context';
export { listImportBatches } from './server/list-import-batches';
export { undoImportBatch } from './server/undo-import-batch';
