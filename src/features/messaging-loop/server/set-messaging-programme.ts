import 'server-only';
/**
 * Enrols a patient in a live messaging programme, changes it, or takes them out (programme null). Admins may
 * do it for any patient, clinicians for the patients of their organisations (the shared cohort scope);
 * every change and every refusal is audited.
 */
import { and, eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { patients } from '@/db/schema';
import { cohortConditions, findCohortScope } from '@/db/queries/cohort-scope';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';
import { parseInput } from '@/lib/parse-input';
import { messagingProgrammeChangeSchema, type MessagingEnrolmentDto } from '../schemas';

const auditAction = 'messaging.programme.set';
export const notAllowedMessage = 'Only admins and the clinicians caring for a patient may change their messaging programme.';
export const unknownPatientMessage = 'patientId: no patient with this id is in your care.';

export async function setMessagingProgramme(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  input: unknown;
  clientAddress?: string | null;
  requestId?: string | null;
}): Promise<MessagingEnrolmentDto> {
  const { database } = options;
  const context = { clientAddress: options.clientAddress ?? null, requestId: options.requestId ?? null };
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'patients:list',
    message: notAllowedMessage,
    audit: { database, action: auditAction, ...context },
  });
  const { patientId, programme } = parseInput(messagingProgrammeChangeSchema, options.input, { label: 'The programme change' });
  const scope = await findCohortScope({ database, actor });
  const conditions = cohortConditions(database, scope);
  const [patient] =
    conditions === null
      ? []
      : await database
          .select({ id: patients.id, programme: patients.messagingProgramme })
          .from(patients)
          .where(and(eq(patients.id, patientId), conditions.patients));
  if (patient === undefined) {
    // Same answer for a patient outside the actor's care as for one that does not exist: no probing.
    await recordAuditEvent(database, {
      action: auditAction,
      outcome: 'denied',
      actorUserId: actor.id,
      ...context,
      details: { patientId, reason: 'out of scope or unknown' },
    });
    throw new AppError('not_found', unknownPatientMessage);
  }
  await database.update(patients).set({ messagingProgramme: programme }).where(eq(patients.id, patientId));
  await recordAuditEvent(database, {
    action: auditAction,
    outcome: 'success',
    actorUserId: actor.id,
    ...context,
    details: { patientId, from: patient.programme, to: programme },
  });
  return { patientId, programme };
}
