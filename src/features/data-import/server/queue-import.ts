import 'server-only';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { enqueueJob } from '@/lib/server/jobs';
import type { RequestContext } from '@/lib/server/request-context';
import {
  dispensingCsvMappingSchema,
  importFormats,
  importJobKinds,
  importTextSchema,
  maximumImportBytes,
  sourceNameSchema,
} from '../schemas';
import { type ImportActor, authoriseImport } from './authorise-import';

const queuedImportSchema = z.object({
  format: z.enum(importFormats, { message: 'Choose FHIR or pharmacy CSV.' }),
  fileName: z
    .string()
    .trim()
    .transform((name) => name.slice(0, 200) || 'upload'),
  file: importTextSchema
    .refine((text) => text.trim() !== '', 'The file is empty.')
    .refine((text) => Buffer.byteLength(text) <= maximumImportBytes, `The file is larger than ${maximumImportBytes / 1024 / 1024} MB.`),
  mapping: dispensingCsvMappingSchema.optional(),
  source: sourceNameSchema.optional(),
});

export type QueuedImportInput = z.input<typeof queuedImportSchema>;

/**
 * The one tail of every upload that runs as a background job (FHIR or pharmacy CSV): authorises, validates
 * the whole input, queues the job (the import itself is importFhir / importDispensingCsv, run by the job's
 * handler as the same user), and audits the queuing with the request it came from.
 */
export async function queueImport(options: {
  database: Database;
  actor: ImportActor;
  input: unknown;
  request: RequestContext;
}): Promise<{ jobId: string }> {
  const actor = await authoriseImport({
    database: options.database,
    actor: options.actor,
    action: 'data-import.queue',
    request: options.request,
  });
  const input = parseInput(queuedImportSchema, options.input, { label: 'The upload' });
  const { id: jobId } = await enqueueJob({
    database: options.database,
    kind: importJobKinds[input.format],
    payload: {
      fileName: input.fileName,
      text: input.file,
      ...(input.format === 'csv' && input.mapping !== undefined ? { mapping: input.mapping } : {}),
      ...(input.source === undefined ? {} : { source: input.source }),
      request: options.request,
    },
    createdBy: actor === 'operator' ? null : actor.id,
  });
  await recordAuditEvent(options.database, {
    action: 'data-import.queue',
    outcome: 'success',
    actorUserId: actor === 'operator' ? null : actor.id,
    ...options.request,
    // Sizes and ids only: a file name can name a patient.
    details: { format: input.format, jobId, bytes: Buffer.byteLength(input.file) },
  });
  return { jobId };
}
