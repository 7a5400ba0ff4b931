import 'server-only';
import type { Database } from '@/db/client';
import { FhirImportPlanner, FhirInputError, type ImportReport, buildImportReport, readFhirInput } from '@/engine/ingestion';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import { importTextSchema, sourceNameSchema } from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';
import { type CheckpointSaver, type ImportCheckpoint, type ProgressCallback, writeImportPlan, yieldToEventLoop } from './write-import-plan';

/** Entries interpreted between two yields to the event loop. */
const entriesPerSlice = 500;

/**
 * Imports a FHIR R4 upload (Bundle, NDJSON or one resource): patients, products, regimens, dispensings and
 * dose events, a transaction per chunk (see writeImportPlan). Importing the same file again creates nothing,
 * and completes an import that stopped part-way. The report accounts for every entry: created, unchanged
 * or skipped with a reason.
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
  /** "Today" for age bands (tests fix it). */
  now?: Date;
}): Promise<ImportReport> {
  await authoriseImport({ database: options.database, actor: options.actor, action: 'data-import.fhir', request: options.request });
  const text = importTextSchema.safeParse(options.text);
  if (!text.success) throw new AppError('validation', text.error.issues[0]?.message ?? 'The file is not valid.');
  const source = sourceNameSchema.safeParse(options.source ?? 'fhir');
  if (!source.success)
    throw new AppError('validation', source.error.issues[0]?.message ?? 'The source is not valid.', {
      fieldErrors: { source: 'Invalid source.' },
    });

  let planner: FhirImportPlanner;
  try {
    planner = new FhirImportPlanner(readFhirInput(text.data), { referenceDate: (options.now ?? new Date()).toISOString().slice(0, 10) });
  } catch (error) {
    if (error instanceof FhirInputError) throw new AppError('validation', error.message, { cause: error });
    throw error;
  }
  for (let start = 0; start < planner.entryCount; start += entriesPerSlice) {
    planner.interpretEntries(start, start + entriesPerSlice);
    await yieldToEventLoop();
  }
  const plan = planner.finish();

  const written = await writeImportPlan({
    database: options.database,
    source: source.data,
    sourceKind: 'fhir',
    sourceName: `FHIR import (${source.data})`,
    plan,
    onProgress: options.onProgress,
    resumeFrom: options.resumeFrom,
    saveCheckpoint: options.saveCheckpoint,
  });
  const report = buildImportReport(plan.entries, written.createdEntries, written.lateSkips);
  await recordAuditEvent(options.database, {
    action: 'data-import.fhir',
    outcome: 'success',
    actorUserId: options.actor === 'operator' ? null : (options.actor?.id ?? null),
    ...options.request,
    details: {
      via: options.actor === 'operator' ? 'cli' : 'web',
      source: source.data,
      resources: report.resources,
      created: report.created,
      skipped: report.skipped.length,
    },
  });
  return report;
}
