import 'server-only';
import type { Database } from '@/db/client';
import { AppError, noUserLoggedIn } from '@/lib/errors';
import { hasPermission, type Permission } from '@/lib/permissions';
import { recordAuditEvent } from './audit';
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
