import 'server-only';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the caller of an import knows about it and the import's own options do not carry: the file's name and
 * the background job that runs it. The job handlers and the command line set it around importFhir /
 * importDispensingCsv; finishImport reads it when it opens the import's batch. Absent (the FHIR API route, tests):
 * a batch without a file name, a new batch each call.
 */
export type ImportBatchContext = { fileName?: string | null; jobId?: string | null };

const storage = new AsyncLocalStorage<ImportBatchContext>();

export function withImportBatchContext<T>(context: ImportBatchContext, work: () => Promise<T>): Promise<T> {
  return storage.run(context, work);
}

export function currentImportBatchContext(): ImportBatchContext {
  return storage.getStore() ?? {};
}
