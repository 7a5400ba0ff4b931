/**
 * Background-job handlers for uploads queued from the data-sources page (kinds `import-fhir` and
 * `import-csv`, payload `{ fileName, text, mapping?, source?, request? }`) and for large undos of an import
 * batch (`import-undo`, payload `{ batchId, request? }`). Importing this module registers them.
 * Each chunk the import writes commits together with the job's checkpoint, so a job whose process stopped
 * resumes after the last committed chunk and its report still counts every row it created once.
 */
import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from '@/lib/zod';
import { type Database, getDatabase } from '@/db/client';
import { userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { type JobContext, type JobHandler, type JobRecord, registerJobHandler } from '@/lib/server/jobs';
import { importJobKinds } from '../schemas';
import type { ImportActor } from './authorise-import';
import { withImportBatchContext } from './import-batch-context';
import { importDispensingCsv } from './import-dispensing-csv';
import { importFhir } from './import-fhir';
import { completeImportBatchUndo, importUndoJobKind } from './undo-import-batch';

export { importJobKinds };

const payloadSchema = z.object({
  text: z.string({ message: 'The queued import has no file text.' }),
  fileName: z.string().optional(),
  source: z.string().optional(),
  mapping: z.unknown().optional(),
  /** The request that queued the upload (see queueImport), so the import's audit row names it too. */
  request: z.object({ requestId: z.string().optional(), clientAddress: z.string().optional() }).optional(),
});

/** The job runs with its creator's role as it is now: a role withdrawn since the upload stops the import. */
async function actorOfJob(database: Database, job: JobRecord): Promise<ImportActor> {
  if (job.createdBy === null) return 'operator';
  const [profile] = await database.select({ role: userProfiles.role }).from(userProfiles).where(eq(userProfiles.uid, job.createdBy));
  return { id: job.createdBy, role: profile?.role ?? 'patient' };
}

function payloadOf(job: JobRecord) {
  const parsed = payloadSchema.safeParse(job.payload);
  if (!parsed.success) throw new AppError('validation', parsed.error.issues[0]?.message ?? 'The queued import is not valid.');
  return parsed.data;
}

const checkpointSchema = z.object({
  createdEntries: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
  written: z.object({
    regimens: z.number().int().nonnegative(),
    dispensings: z.number().int().nonnegative(),
    doseEvents: z.number().int().nonnegative(),
  }),
});

/** Resume state for the import: what the previous run of this job saved, if it is one of ours. */
function resumeStateOf(context: JobContext) {
  const parsed = checkpointSchema.safeParse(context.checkpoint);
  return {
    resumeFrom: parsed.success ? parsed.data : null,
    saveCheckpoint: (transaction: Database, checkpoint: z.infer<typeof checkpointSchema>) =>
      context.saveCheckpoint(checkpoint, { through: transaction }),
    onProgress: (done: number, total: number) => context.reportProgress(done, total),
  };
}

const undoPayloadSchema = z.object({
  batchId: z.string().uuid('The queued undo names no import batch.'),
  request: z.object({ requestId: z.string().optional(), clientAddress: z.string().optional() }).optional(),
});

/** The file's name and the job (so a resumed job continues its own batch) for the import's batch (decision 013). */
const batchContextOf = (job: JobRecord, fileName: string | undefined) => ({ fileName: fileName ?? null, jobId: job.id });

export function createImportJobHandlers(database: () => Database): Record<keyof typeof importJobKinds | 'undo', JobHandler> {
  return {
    fhir: async (job, context) => {
      const payload = payloadOf(job);
      const report = await withImportBatchContext(batchContextOf(job, payload.fileName), async () =>
        importFhir({
          database: database(),
          actor: await actorOfJob(database(), job),
          text: payload.text,
          source: payload.source,
          request: payload.request,
          ...resumeStateOf(context),
        }),
      );
      return { fileName: payload.fileName ?? null, ...report };
    },
    csv: async (job, context) => {
      const payload = payloadOf(job);
      const report = await withImportBatchContext(batchContextOf(job, payload.fileName), async () =>
        importDispensingCsv({
          database: database(),
          actor: await actorOfJob(database(), job),
          text: payload.text,
          mapping: payload.mapping,
          source: payload.source,
          request: payload.request,
          ...resumeStateOf(context),
        }),
      );
      return { fileName: payload.fileName ?? null, ...report };
    },
    undo: async (job, context) => {
      const parsed = undoPayloadSchema.safeParse(job.payload);
      if (!parsed.success) throw new AppError('validation', parsed.error.issues[0]?.message ?? 'The queued undo is not valid.');
      const { removedRows } = await completeImportBatchUndo({
        database: database(),
        batchId: parsed.data.batchId,
        request: parsed.data.request,
        onProgress: (done, total) => context.reportProgress(done, total),
      });
      return { batchId: parsed.data.batchId, removedRows };
    },
  };
}

const handlers = createImportJobHandlers(getDatabase);
// On the imports queue (one at a time), so a long upload never holds up other work.
registerJobHandler(importJobKinds.fhir, handlers.fhir, { queue: 'imports' });
registerJobHandler(importJobKinds.csv, handlers.csv, { queue: 'imports' });
registerJobHandler(importUndoJobKind, handlers.undo, { queue: 'imports' });
