import 'server-only';
import { desc, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { importBatches } from '@/db/schema';
import type { RequestContext } from '@/lib/server/request-context';
import type { ImportBatchSummary } from '../import-batch-dto';
import { type BatchActor, authoriseBatchViewer } from './authorise-import-batch';
import { selectImportBatchSummaries, toImportBatchSummary } from './import-batch-summary';

/**
 * The latest import batches the actor may see, newest first, undone ones included: an administrator every
 * batch, a clinician those they ran. Others are refused (audited).
 */
export async function listImportBatches(options: {
  database: Database;
  actor: BatchActor | null;
  limit?: number;
  request?: Partial<RequestContext>;
}): Promise<ImportBatchSummary[]> {
  const { actor, seesEveryBatch } = await authoriseBatchViewer({ ...options, action: 'data-import.batches' });
  const rows = await selectImportBatchSummaries(options.database)
    .where(seesEveryBatch ? undefined : eq(importBatches.createdBy, actor.id))
    .orderBy(desc(importBatches.startedAt))
    .limit(Math.min(Math.max(options.limit ?? 20, 1), 100));
  return rows.map(toImportBatchSummary);
}
