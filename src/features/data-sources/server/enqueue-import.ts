import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { enqueueJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';

export const maximumUploadBytes = 50 * 1024 * 1024;

/** Queues an uploaded FHIR file or pharmacy CSV for import as a background job (progress on the page). */
export async function enqueueImport(options: {
  database: Database;
  actor: SessionUser | null;
  format: unknown;
  fileName: string;
  text: string;
}): Promise<{ jobId: string }> {
  if (options.actor === null) throw new AppError('unauthenticated', 'No user logged in');
  if (options.actor.role !== 'admin' && options.actor.role !== 'clinician') throw new AppError('forbidden', 'Only clinicians and administrators can import data.');
  if (options.format !== 'fhir' && options.format !== 'csv') throw new AppError('validation', 'format must be fhir or csv.', { fieldErrors: { format: 'Choose FHIR or pharmacy CSV.' } });
  if (options.text.trim() === '') throw new AppError('validation', 'The file is empty.', { fieldErrors: { file: 'The file is empty.' } });
  if (options.text.length > maximumUploadBytes) throw new AppError('validation', 'The file is larger than 50 MB; split it and import the parts.', { fieldErrors: { file: 'At most 50 MB.' } });
  const { id } = await enqueueJob({
    database: options.database,
    kind: options.format === 'fhir' ? 'import-fhir' : 'import-csv',
    payload: { fileName: options.fileName.slice(0, 200), text: options.text },
    createdBy: options.actor.id,
  });
  return { jobId: id };
}
