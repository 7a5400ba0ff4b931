import 'server-only';
import type { Database } from '@/db/client';
import { userProfiles } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { parseInput } from '@/lib/parse-input';
import { recordAuditEvent } from '@/lib/server/audit';
import { requireActor } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { type ProfileDocument, roleInputSchema } from '../schemas';
import { getProfileDocument } from './get-profile-document';

/**
 * Seed-spec §6 lets the profile update set the role; DESIGN §8.1 narrows it: a user may set their own role
 * only to `patient`. Privileged roles are granted by an admin (grant-role.ts).
 */
export async function updateRole(options: {
  database: Database;
  actor: SessionUser | null;
  role: unknown;
  request?: Partial<RequestContext>;
}): Promise<ProfileDocument> {
  const actor = requireActor(options.actor);
  const { role } = parseInput(roleInputSchema, { role: options.role }, { label: 'The role change' });
  if (role !== 'patient') {
    await recordAuditEvent(options.database, {
      action: 'role.self-assign',
      outcome: 'denied',
      actorUserId: actor.id,
      targetUserId: actor.id,
      ...options.request,
      details: { requestedRole: role },
    });
    throw new AppError('forbidden', `Only an administrator can grant the role ${role}.`);
  }
  await options.database
    .insert(userProfiles)
    .values({ uid: actor.id, role: 'patient', updatedUnix: Date.now() })
    .onConflictDoUpdate({ target: userProfiles.uid, set: { role: 'patient', updatedUnix: Date.now() } });
  await recordAuditEvent(options.database, {
    action: 'role.self-assign',
    outcome: 'success',
    actorUserId: actor.id,
    targetUserId: actor.id,
    ...options.request,
    details: { role: 'patient', previousRole: actor.role },
  });
  const document = await getProfileDocument({ database: options.database, uid: actor.id });
  if (document === null) throw new AppError('internal', 'The profile could not be read back.');
  return document;
}
