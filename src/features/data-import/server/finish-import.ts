import 'server-only';
import type { Database } from '@/db/client';
import { type ImportPlan, type ImportReport, buildImportReport } from '@/engine/ingestion';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { ImportActor } from './authorise-import';
import { closeImportBatch, openImportBatch } from './import-batch-lifecycle';
import { type CheckpointSaver, type ImportCheckpoint, type ProgressCallback, writeImportPlan } from './write-import-plan';

/**
 * The one tail of every import (FHIR and pharmacy CSV alike), once its plan is checked: open the import's batch,
 * write the plan a chunk at a time recording every row it delivers against the batch (decision 013), account for
 * every entry in the report, close the batch with its counts, and audit who imported what through which path.
 */
export async function finishImport(options: {
  database: Database;
  actor: ImportActor;
  format: 'fhir' | 'csv';
  source: string;
  sourceKind: 'fhir' | 'pharmacy-csv';
  sourceName: string;
  plan: ImportPlan;
  onProgress?: ProgressCallback;
  resumeFrom?: ImportCheckpoint | null;
  saveCheckpoint?: CheckpointSaver;
  request?: Partial<RequestContext>;
}): Promise<ImportReport> {
  const batchId = await openImportBatch({
    database: options.database,
    actor: options.actor,
    format: options.format,
    source: options.source,
  });
  let written: Awaited<ReturnType<typeof writeImportPlan>>;
  try {
    written = await writeImportPlan({
      database: options.database,
      source: options.source,
      sourceKind: options.sourceKind,
      sourceName: options.sourceName,
      plan: options.plan,
      onProgress: options.onProgress,
      resumeFrom: options.resumeFrom,
      saveCheckpoint: options.saveCheckpoint,
      batchId,
    });
  } catch (error) {
    // The chunks it committed stay (decision 004): the batch says so, and can be undone.
    await closeImportBatch({ database: options.database, batchId, status: 'failed' }).catch(() => undefined);
    throw error;
  }
  const report = buildImportReport(options.plan.entries, written.createdEntries, written.lateSkips);
  await closeImportBatch({
    database: options.database,
    batchId,
    status: 'completed',
    report: { resources: report.resources, skipped: report.skipped.length },
  });
  await recordAuditEvent(options.database, {
    action: `data-import.${options.format}`,
    outcome: 'success',
    actorUserId: options.actor === 'operator' ? null : (options.actor?.id ?? null),
    ...options.request,
    details: {
      via: options.actor === 'operator' ? 'cli' : 'web',
      source: options.source,
      batchId,
      resources: report.resources,
      created: report.created,
      skipped: report.skipped.length,
    },
  });
  return report;
}
