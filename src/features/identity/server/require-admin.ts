import 'server-only';
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import type { SessionUser } from '@/lib/server/session';
import { requireActor } from './require-actor';

/** Only admins may grant roles and memberships; a refusal is audited. */
export async function requireAdmin(options: {
  database: Database;
  actor: SessionUser | null;
  action: string;
  clientAddress?: string;
}): Promise<SessionUser> {
  const actor = requireActor(options.actor);
  if (actor.role !== 'admin') {
    await recordAuditEvent(options.database, {
      action: options.action,
      outcome: 'denied',
      actorUserId: actor.id,
      clientAddress: options.clientAddress,
      details: { reason: 'not an admin' },
    });
    throw new AppError('forbidden', 'Only an administrator can do this.');
  }
  return actor;
}
