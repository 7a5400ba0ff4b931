import 'server-only';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { CsvInputError, DispensingCsvReader, type DispensingRecord, type ImportPlan, type ImportReport } from '@/engine/ingestion';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import type { RequestContext } from '@/lib/server/request-context';
import { dispensingCsvMappingSchema, importTextSchema, sourceNameSchema } from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';
import { finishImport } from './finish-import';
import { type CheckpointSaver, type ImportCheckpoint, type ProgressCallback, yieldToEventLoop } from './write-import-plan';

/** Rows parsed between two yields to the event loop. */
const rowsPerSlice = 5000;

/** Each CSV row is reported as one "Dispensing" entry. */
export const csvRowResourceType = 'Dispensing';

/**
 * Imports a pharmacy dispensing CSV (AdhereR's columns by default, or a mapping): every row is checked
 * before anything is written, so a bad row stops the import with its line named and nothing stored;
 * then patients and dispensings go in, a transaction per chunk (see writeImportPlan). Importing the same
 * file again creates nothing, and completes an import that stopped part-way.
 */
export async function importDispensingCsv(options: {
  database: Database;
  actor: ImportActor;
  text: string;
  mapping?: unknown;
  /** Data source the rows are keyed under (default "pharmacy-csv"). */
  source?: string;
  onProgress?: ProgressCallback;
  /** A background job resumes from where its previous run stopped and checkpoints each chunk. */
  resumeFrom?: ImportCheckpoint | null;
  saveCheckpoint?: CheckpointSaver;
  /** The request that brought the file (for a queued upload: the one that queued it), for the audit log. */
  request?: Partial<RequestContext>;
}): Promise<ImportReport> {
  await authoriseImport({ database: options.database, actor: options.actor, action: 'data-import.csv', request: options.request });
  const input = parseInput(
    z.object({ text: importTextSchema, mapping: dispensingCsvMappingSchema, source: sourceNameSchema }),
    { text: options.text, mapping: options.mapping ?? {}, source: options.source ?? 'pharmacy-csv' },
    { label: 'The import' },
  );

  const plan: ImportPlan = { entries: [], patients: [], medications: [], regimens: [], dispensings: [], doseEvents: [] };
  const patientIds = new Set<string>();
  try {
    const reader = new DispensingCsvReader(input.text, input.mapping);
    while (!reader.done) {
      for (const row of reader.readRows(rowsPerSlice)) {
        const record: DispensingRecord = {
          entry: plan.entries.length,
          sourceRecordId: row.sourceRecordId,
          patient: row.patientId,
          medication:
            row.medicationClass === null ? null : { rxnorm: null, ndc: null, atc: null, otherCode: null, text: row.medicationClass },
          dispensedOn: row.dispensedOn,
          daysSupply: row.daysSupply,
          quantity: null,
          dosesPerDay: row.dosesPerDay,
        };
        plan.entries.push({ resourceType: csvRowResourceType, id: `line ${row.line}`, skipReason: null });
        plan.dispensings.push(record);
        patientIds.add(row.patientId);
      }
      await yieldToEventLoop();
    }
  } catch (error) {
    if (error instanceof CsvInputError)
      throw new AppError('validation', error.message, { cause: error, fieldErrors: { line: String(error.line) } });
    throw error;
  }
  for (const patientId of patientIds)
    plan.patients.push({ sourceRecordId: patientId, entry: null, sex: null, ageBand: null, region: null, language: null });

  return finishImport({
    database: options.database,
    actor: options.actor,
    format: 'csv',
    source: input.source,
    sourceKind: 'pharmacy-csv',
    sourceName: `Pharmacy dispensing CSV (${input.source})`,
    plan,
    onProgress: options.onProgress,
    resumeFrom: options.resumeFrom,
    saveCheckpoint: options.saveCheckpoint,
    request: options.request,
  });
}
