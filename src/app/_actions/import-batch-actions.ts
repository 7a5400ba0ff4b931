'use server';

import { z } from '@/lib/zod';
import { getImportBatch, undoImportBatch } from '@/features/data-import';
import { authedAction } from '@/lib/server/authed-action';

// The use cases check the id (a clear error naming it) and who may see or remove the batch.
export const getImportBatchAction = authedAction({
  schema: z.unknown(),
  run: (batchId, context) => getImportBatch({ ...context, batchId }),
});

export const undoImportBatchAction = authedAction({
  schema: z.unknown(),
  run: (batchId, context) => undoImportBatch({ ...context, batchId }),
});
