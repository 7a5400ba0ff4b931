import 'server-only';
import type { Database } from '@/db/client';
import { isPatientCareTeam } from '@/db/queries/patient-care-team';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { hasPermission, type Permission } from '@/lib/permissions';
import { recordAuditEvent } from './audit';
import type { RequestContext } from './request-context';
import type { SessionUser } from './session';

export { noUserLoggedIn };

/** The signed-in user, or an 'unauthenticated' AppError (HTTP 401) saying "No user logged in". */
export function requireActor<Actor extends Pick<SessionUser, 'id' | 'role'> = SessionUser>(actor: Actor | null): Actor {
  if (actor === null) throw new AppError('unauthenticated', noUserLoggedIn);
  return actor;
}

/**
 * The signed-in user if their role has the permission; otherwise a 'forbidden' AppError (HTTP 403) with
 * `message`, and, when `audit` is given, a 'denied' row in the audit log first.
 */
export async function requirePermission<Actor extends Pick<SessionUser, 'id' | 'role'>>(options: {
  actor: Actor | null;
  permission: Permission;
  message: string;
  audit?: { database: Database; action: string; clientAddress?: string | null; requestId?: string | null };
}): Promise<Actor> {
  const actor = requireActor(options.actor);
  if (hasPermission(actor.role, options.permission)) return actor;
  if (options.audit !== undefined) {
    await recordAuditEvent(options.audit.database, {
      action: options.audit.action,
      outcome: 'denied',
      actorUserId: actor.id,
      clientAddress: options.audit.clientAddress ?? null,
      requestId: options.audit.requestId ?? null,
      details: { reason: `needs ${options.permission}` },
    });
  }
  throw new AppError('forbidden', options.message);
}

/**
 * Passes only for the patient's care team (`isPatientCareTeam`: an admin, or a clinician of the patient's
 * organisation), the rule wherever a patient's own messages, replies or surveys are read or sent. Anyone else gets
 * `refusal` after a 'denied' audit row that names the patient record only by its id. `patientFound: false` (the
 * caller looked the patient up and found none) is refused the same way, so a missing patient and someone else's
 * look alike.
 */
export async function requirePatientCareTeam(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  patientId: string;
  /** The audit row's action. */
  action: string;
  refusal: AppError;
  patientFound?: boolean;
  request?: Partial<RequestContext>;
  /** More for the audit row (what was asked for, when it was not a patient id). */
  details?: Record<string, unknown>;
}): Promise<void> {
  const { database, actor, patientId } = options;
  if ((options.patientFound ?? true) && (await isPatientCareTeam({ database, actor, patientId }))) return;
  await recordAuditEvent(database, {
    action: options.action,
    outcome: 'denied',
    actorUserId: actor.id,
    ...options.request,
    details: { role: actor.role, patientId, ...options.details },
  });
  throw options.refusal;
}
