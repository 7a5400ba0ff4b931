import 'server-only';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import {
  DispensingCsvReader,
  type DispensingRecord,
  type ImportPlan,
  ImportProblemsError,
  type ImportReport,
  type MedicationConcept,
} from '@/engine/ingestion';
import { parseInput } from '@/lib/parse-input';
import type { RequestContext } from '@/lib/server/request-context';
import { dispensingCsvMappingSchema, importTextSchema, sourceNameSchema } from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';
import { finishImport } from './finish-import';
import { ImportRefusedError, todayOf } from './import-refused';
import { loadProductCatalogue } from './product-catalogue';
import { type CheckpointSaver, type ImportCheckpoint, type ProgressCallback, yieldToEventLoop } from './write-import-plan';

/** Rows parsed between two yields to the event loop. */
const rowsPerSlice = 5000;

/** Each CSV row is reported as one "Dispensing" entry. */
export const csvRowResourceType = 'Dispensing';

/**
 * Imports a pharmacy dispensing CSV (AdhereR's columns by default, or a mapping): every row is checked
 * before anything is written — its shape, dates after tomorrow or before 1900, days supply over 365, and,
 * when the mapping says medications are catalogue codes, products the catalogue lacks — and any problem
 * refuses the file with every bad line listed (ImportRefusedError) and nothing stored. Then patients and
 * dispensings go in, a transaction per chunk (see writeImportPlan). Importing the same file again creates
 * nothing, and completes an import that stopped part-way. Patients are not checked: the pharmacy file is
 * where they come from.
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
  /** "Today" for the date checks (tests fix it). */
  now?: Date;
}): Promise<ImportReport> {
  await authoriseImport({ database: options.database, actor: options.actor, action: 'data-import.csv', request: options.request });
  const input = parseInput(
    z.object({ text: importTextSchema, mapping: dispensingCsvMappingSchema, source: sourceNameSchema }),
    { text: options.text, mapping: options.mapping ?? {}, source: options.source ?? 'pharmacy-csv' },
    { label: 'The import' },
  );

  const plan: ImportPlan = { entries: [], patients: [], medications: [], regimens: [], dispensings: [], doseEvents: [] };
  const patientIds = new Set<string>();
  const catalogue = input.mapping.medicationCodes === 'catalogue' ? await loadProductCatalogue(options.database) : null;
  const medicationOf = (value: string | null): MedicationConcept | null =>
    value === null ? null : (catalogue?.(value) ?? { rxnorm: null, ndc: null, atc: null, otherCode: null, text: value });
  try {
    const reader = new DispensingCsvReader(input.text, input.mapping, {
      today: todayOf(options.now ?? new Date()),
      ...(catalogue === null ? {} : { isCatalogueProduct: (value: string) => catalogue(value) !== null }),
    });
    while (!reader.done) {
      for (const row of reader.readRows(rowsPerSlice)) {
        const record: DispensingRecord = {
          entry: plan.entries.length,
          sourceRecordId: row.sourceRecordId,
          patient: row.patientId,
          medication: medicationOf(row.medicationClass),
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
    if (!reader.problems.empty) throw new ImportProblemsError(reader.problems.listed, reader.problems.total);
  } catch (error) {
    if (error instanceof ImportProblemsError) throw ImportRefusedError.of(error);
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
