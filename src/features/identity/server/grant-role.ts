import 'server-only';
import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { type Role, roleInputSchema } from '../schemas';
import { requireAdmin } from './require-admin';

/** An admin grants any role to any user (DESIGN §8.1); the change applies on the user's next request. */
export async function grantRole(options: {
  database: Database;
  actor: SessionUser | null;
  targetUserId: string;
  role: unknown;
  request?: Partial<RequestContext>;
}): Promise<{ userId: string; role: Role }> {
  const actor = await requireAdmin({ ...options, action: 'role.grant' });
  const { role } = parseInput(roleInputSchema, { role: options.role }, { label: 'The role grant' });
  const [target] = await options.database.select({ id: authUsers.id }).from(authUsers).where(eq(authUsers.id, options.targetUserId));
  if (target === undefined) throw new AppError('not_found', 'There is no such user.');
  const [previous] = await options.database.select({ role: userProfiles.role }).from(userProfiles).where(eq(userProfiles.uid, target.id));
  await options.database
    .insert(userProfiles)
    .values({ uid: target.id, role, updatedUnix: Date.now() })
    .onConflictDoUpdate({ target: userProfiles.uid, set: { role, updatedUnix: Date.now() } });
  await recordAuditEvent(options.database, {
    action: 'role.grant',
    outcome: 'success',
    actorUserId: actor.id,
    targetUserId: target.id,
    ...options.request,
    details: { role, previousRole: previous?.role ?? null },
  });
  return { userId: target.id, role };
}
