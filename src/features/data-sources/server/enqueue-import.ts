import 'server-only';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { enqueueJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';

export const maximumUploadBytes = 50 * 1024 * 1024;

const columnName = z.string().trim().min(1).max(100).optional();

/** How a pharmacy CSV maps onto dispensings: column names (AdhereR's by default) and the date format. */
export const csvMappingSchema = z.object({
  dateFormat: z.enum(['iso', 'mdy', 'dmy'], { error: 'dateFormat must be iso, mdy or dmy' }).default('iso'),
  columns: z
    .object({ patientId: columnName, date: columnName, daysSupply: columnName, dosesPerDay: columnName, medicationClass: columnName })
    .default({}),
});

/** Queues an uploaded FHIR file or pharmacy CSV for import as a background job (progress on the page). */
export async function enqueueImport(options: {
  database: Database;
  actor: SessionUser | null;
  format: unknown;
  fileName: string;
  text: string;
  /** For CSV: column names and date format. */
  mapping?: unknown;
}): Promise<{ jobId: string }> {
  if (options.actor === null) throw new AppError('unauthenticated', 'No user logged in');
  if (options.actor.role !== 'admin' && options.actor.role !== 'clinician') throw new AppError('forbidden', 'Only clinicians and administrators can import data.');
  if (options.format !== 'fhir' && options.format !== 'csv') throw new AppError('validation', 'format must be fhir or csv.', { fieldErrors: { format: 'Choose FHIR or pharmacy CSV.' } });
  if (options.text.trim() === '') throw new AppError('validation', 'The file is empty.', { fieldErrors: { file: 'The file is empty.' } });
  if (options.text.length > maximumUploadBytes) throw new AppError('validation', 'The file is larger than 50 MB; split it and import the parts.', { fieldErrors: { file: 'At most 50 MB.' } });
  const mapping = options.format === 'csv' ? csvMappingSchema.safeParse(options.mapping ?? {}) : null;
  if (mapping && !mapping.success) {
    const issue = mapping.error.issues[0];
    throw new AppError('validation', issue?.message ?? 'The column mapping is not valid.', { fieldErrors: { [String(issue?.path.at(-1) ?? 'mapping')]: issue?.message ?? 'not valid' } });
  }
  const { id } = await enqueueJob({
    database: options.database,
    kind: options.format === 'fhir' ? 'import-fhir' : 'import-csv',
    payload: { fileName: options.fileName.slice(0, 200), text: options.text, ...(mapping?.success ? { mapping: mapping.data } : {}) },
    createdBy: options.actor.id,
  });
  return { jobId: id };
}
