import 'server-only';
import type { Database } from '@/db/client';
import {
  CsvInputError,
  DispensingCsvReader,
  type DispensingRecord,
  type ImportPlan,
  type ImportReport,
  buildImportReport,
} from '@/engine/ingestion';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import { dispensingCsvMappingSchema, importTextSchema, sourceNameSchema } from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';
import { type CheckpointSaver, type ImportCheckpoint, type ProgressCallback, writeImportPlan, yieldToEventLoop } from './write-import-plan';

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
  const text = importTextSchema.safeParse(options.text);
  if (!text.success) throw new AppError('validation', text.error.issues[0]?.message ?? 'The file is not valid.');
  const mapping = dispensingCsvMappingSchema.safeParse(options.mapping ?? {});
  if (!mapping.success) throw new AppError('validation', mapping.error.issues[0]?.message ?? 'The column mapping is not valid.');
  const source = sourceNameSchema.safeParse(options.source ?? 'pharmacy-csv');
  if (!source.success)
    throw new AppError('validation', source.error.issues[0]?.message ?? 'The source is not valid.', {
      fieldErrors: { source: 'Invalid source.' },
    });

  const plan: ImportPlan = { entries: [], patients: [], medications: [], regimens: [], dispensings: [], doseEvents: [] };
  const patientIds = new Set<string>();
  try {
    const reader = new DispensingCsvReader(text.data, mapping.data);
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

  const written = await writeImportPlan({
    database: options.database,
    source: source.data,
    sourceKind: 'pharmacy-csv',
    sourceName: `Pharmacy dispensing CSV (${source.data})`,
    plan,
    onProgress: options.onProgress,
    resumeFrom: options.resumeFrom,
    saveCheckpoint: options.saveCheckpoint,
  });
  const report = buildImportReport(plan.entries, written.createdEntries, written.lateSkips);
  await recordAuditEvent(options.database, {
    action: 'data-import.csv',
    outcome: 'success',
    actorUserId: options.actor === 'operator' ? null : (options.actor?.id ?? null),
    ...options.request,
    details: {
      via: options.actor === 'operator' ? 'cli' : 'web',
      source: source.data,
      resources: report.resources,
      created: report.created,
    },
  });
  return report;
}
