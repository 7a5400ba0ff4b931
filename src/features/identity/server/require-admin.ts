import 'server-only';
import type { Database } from '@/db/client';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';

/** Only admins may grant roles and memberships; a refusal is audited. */
export async function requireAdmin(options: {
  database: Database;
  actor: SessionUser | null;
  action: string;
  /** The request's id and client address, for the audit row of a refusal. */
  request?: Partial<RequestContext>;
}): Promise<SessionUser> {
  return requirePermission({
    actor: options.actor,
    permission: 'users:administer',
    message: 'Only an administrator can do this.',
    audit: { database: options.database, action: options.action, ...options.request },
  });
}
