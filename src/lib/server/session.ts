import 'server-only';
import { eq } from 'drizzle-orm';
import { getDatabase } from '@/db/client';
import type { Database } from '@/db/client';
import { type Role, userProfiles } from '@/db/schema';
import { type Auth, getAuth } from './auth';

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  phoneNumber: string | null;
  twoFactorEnabled: boolean;
};

/**
 * The signed-in user behind these request headers, or null. The session policy better-auth does not know
 * (staff roles end after 15 minutes without activity, every session after 12 hours) is enforced before
 * better-auth looks at the session, by the hook in auth.ts (session-policy.ts), so it holds for every
 * better-auth endpoint too. The role is read from the profile on every request, so a role change applies on
 * the next request.
 *
 * `recordActivity: false` asks without counting the request as activity (a background check, such as the
 * live profile stream's periodic one, must not keep an idle session alive).
 */
export async function getSessionUser(
  headers: Headers,
  dependencies: { auth?: Auth; database?: Database; recordActivity?: boolean } = {},
): Promise<SessionUser | null> {
  const auth = dependencies.auth ?? (await getAuth());
  const database = dependencies.database ?? getDatabase();
  const found = await auth.api.getSession({ headers, query: { disableRefresh: dependencies.recordActivity === false } });
  if (found === null) return null;
  const [profile] = await database.select({ role: userProfiles.role }).from(userProfiles).where(eq(userProfiles.uid, found.user.id));
  const role: Role = profile?.role ?? 'patient';

  const user = found.user as typeof found.user & { phoneNumber?: string | null; twoFactorEnabled?: boolean | null };
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role,
    phoneNumber: user.phoneNumber ?? null,
    twoFactorEnabled: user.twoFactorEnabled === true,
  };
}
