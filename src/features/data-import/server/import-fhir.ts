import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { patients } from '@/db/schema';
import { FhirImportPlanner, FhirInputError, type ImportReport, readFhirInput } from '@/engine/ingestion';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import type { RequestContext } from '@/lib/server/request-context';
import { importTextSchema, sourceNameSchema } from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';
import { finishImport } from './finish-import';
import { ImportRefusedError, todayOf } from './import-refused';
import { type CheckpointSaver, type ImportCheckpoint, type ProgressCallback, yieldToEventLoop } from './write-import-plan';

/** Entries interpreted between two yields to the event loop. */
const entriesPerSlice = 500;

/**
 * Imports a FHIR R4 upload (Bundle, NDJSON or one resource): patients, products, regimens, dispensings and
 * dose events, a transaction per chunk (see writeImportPlan). Importing the same file again creates nothing,
 * and completes an import that stopped part-way. The report accounts for every entry: created, unchanged
 * or skipped with a reason (a dispense with a supply or quantity ≤ 0 is skipped). A file with a record dated
 * after tomorrow, before 1900 or before its patient's birth, a days supply over 365, or a reference to a
 * patient neither in the file nor imported before from this source is refused (ImportRefusedError, every
 * problem listed) and nothing is stored.
 */
export async function importFhir(options: {
  database: Database;
  actor: ImportActor;
  text: string;
  /** Data source the rows are keyed under (default "fhir"). */
  source?: string;
  onProgress?: ProgressCallback;
  /** A background job resumes from where its previous run stopped and checkpoints each chunk. */
  resumeFrom?: ImportCheckpoint | null;
  saveCheckpoint?: CheckpointSaver;
  /** The request that brought the file (for a queued upload: the one that queued it), for the audit log. */
  request?: Partial<RequestContext>;
  /** "Today" for age bands and the date checks (tests fix it). */
  now?: Date;
}): Promise<ImportReport> {
  await authoriseImport({ database: options.database, actor: options.actor, action: 'data-import.fhir', request: options.request });
  const input = parseInput(
    z.object({ text: importTextSchema, source: sourceNameSchema }),
    { text: options.text, source: options.source ?? 'fhir' },
    { label: 'The import' },
  );

  let planner: FhirImportPlanner;
  try {
    planner = new FhirImportPlanner(readFhirInput(input.text), { referenceDate: todayOf(options.now ?? new Date()) });
  } catch (error) {
    if (error instanceof FhirInputError) throw new AppError('validation', error.message, { cause: error });
    throw error;
  }
  for (let start = 0; start < planner.entryCount; start += entriesPerSlice) {
    planner.interpretEntries(start, start + entriesPerSlice);
    await yieldToEventLoop();
  }
  planner.checkPatientsKnown(await storedPatients(options.database, input.source, planner.referencedOnlyPatients));
  const plan = planner.finish();
  if (!planner.problems.empty) throw new ImportRefusedError(planner.problems.listed, planner.problems.total);

  return finishImport({
    database: options.database,
    actor: options.actor,
    format: 'fhir',
    source: input.source,
    sourceKind: 'fhir',
    sourceName: `FHIR import (${input.source})`,
    plan,
    onProgress: options.onProgress,
    resumeFrom: options.resumeFrom,
    saveCheckpoint: options.saveCheckpoint,
    request: options.request,
  });
}

/** Which of these patients (source record ids) an earlier import from this source stored. */
async function storedPatients(database: Database, source: string, keys: string[]): Promise<Set<string>> {
  const stored = new Set<string>();
  for (let start = 0; start < keys.length; start += 1000) {
    const rows = await database
      .select({ sourceRecordId: patients.sourceRecordId })
      .from(patients)
      .where(and(eq(patients.source, source), inArray(patients.sourceRecordId, keys.slice(start, start + 1000))));
    for (const row of rows) stored.add(row.sourceRecordId);
  }
  return stored;
}
