import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { requirePatientCareTeam } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';

/**
 * Replies are what a patient wrote: only an admin, or a clinician of the patient's organisation, reads them.
 * Anyone else is refused (403) and the refusal audited, naming the patient record only by its id.
 */
export async function authoriseReplyReader(options: {
  database: Database;
  actor: SessionUser;
  patientId: string;
  action: string;
  request?: Partial<RequestContext>;
}): Promise<void> {
  await requirePatientCareTeam({ ...options, refusal: new AppError('forbidden', 'patientId: you may not read this patient’s replies.') });
}
