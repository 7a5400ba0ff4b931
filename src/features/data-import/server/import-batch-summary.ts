import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, importBatches } from '@/db/schema';
import type { ImportBatchSummary } from '../import-batch-dto';

/** The columns a batch summary shows, with the name of who ran it (staff, never a patient). */
export function selectImportBatchSummaries(database: Database) {
  return database
    .select({
      id: importBatches.id,
      format: importBatches.format,
      source: importBatches.source,
      fileName: importBatches.fileName,
      via: importBatches.via,
      ranBy: authUsers.name,
      startedAt: importBatches.startedAt,
      finishedAt: importBatches.finishedAt,
      status: importBatches.status,
      resources: importBatches.resources,
      skipped: importBatches.skipped,
      createdRows: importBatches.createdRows,
      deliveredRows: importBatches.deliveredRows,
      removedRows: importBatches.removedRows,
      undoneAt: importBatches.undoneAt,
      undoJobId: importBatches.undoJobId,
    })
    .from(importBatches)
    .leftJoin(authUsers, eq(authUsers.id, importBatches.createdBy));
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectImportBatchSummaries>['execute']>>[number];

export function toImportBatchSummary(row: SummaryRow): ImportBatchSummary {
  return {
    ...row,
    ranBy: row.via === 'cli' ? null : (row.ranBy ?? 'a removed user'),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    undoneAt: row.undoneAt?.toISOString() ?? null,
  };
}
