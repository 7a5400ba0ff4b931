import 'server-only';
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { organisationMemberships, patients } from '@/db/schema';
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
  let permitted = actor.role === 'admin';
  if (actor.role === 'clinician') {
    const [row] = await database
      .select({ id: patients.id })
      .from(patients)
      .innerJoin(
        organisationMemberships,
        and(eq(organisationMemberships.organisationId, patients.organisationId), eq(organisationMemberships.userId, actor.id)),
      )
      .where(eq(patients.id, patientId))
      .limit(1);
    permitted = row !== undefined;
  }
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
