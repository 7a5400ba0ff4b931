import 'server-only';
import type { Database } from '@/db/client';
import { isPatientCareTeam } from '@/db/queries/patient-care-team';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
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
  const { database, actor, patientId } = options;
  const permitted = await isPatientCareTeam({ database, actor, patientId });
  if (permitted) return;
  await recordAuditEvent(database, {
    action: options.action,
    outcome: 'denied',
    actorUserId: actor.id,
    ...options.request,
    details: { role: actor.role, patientId },
  });
  throw new AppError('forbidden', 'patientId: you may not read this patient’s replies.');
}
