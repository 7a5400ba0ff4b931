import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { requirePatientCareTeam } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';

/**
 * Replies are what a patient wrote: only an admin, or a clinician of the patient's organisation, reads them.
 * Anyone else is refused (403 unless `refusal` says otherwise) and the refusal audited, naming the patient
 * record only by its id. `patientFound: false` is refused the same way (see requirePatientCareTeam).
 */
export async function authoriseReplyReader(options: {
  database: Database;
  actor: SessionUser;
  patientId: string;
  action: string;
  patientFound?: boolean;
  refusal?: AppError;
  details?: Record<string, unknown>;
  request?: Partial<RequestContext>;
}): Promise<void> {
  await requirePatientCareTeam({
    ...options,
    refusal: options.refusal ?? new AppError('forbidden', 'patientId: you may not read this patient’s replies.'),
  });
}
