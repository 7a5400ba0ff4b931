import 'server-only';
import { eq } from 'drizzle-orm';
import { getDatabase } from '@/db/client';
import type { Database } from '@/db/client';
import { type Role, userProfiles } from '@/db/schema';
import { type Auth, getAuth, sessionPolicy } from './auth';

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  phoneNumber: string | null;
  twoFactorEnabled: boolean;
};

/**
 * The signed-in user behind these request headers, or null. Applies the session policy better-auth does not
 * know: staff roles end after 15 minutes without activity, every session after 12 hours. The role is read
 * from the profile on every request, so a role change applies on the next request.
 */
export async function getSessionUser(
  headers: Headers,
  dependencies: { auth?: Auth; database?: Database; now?: number } = {},
): Promise<SessionUser | null> {
  const auth = dependencies.auth ?? (await getAuth());
  const database = dependencies.database ?? getDatabase();
  const found = await auth.api.getSession({ headers });
  if (found === null) return null;
  const [profile] = await database.select({ role: userProfiles.role }).from(userProfiles).where(eq(userProfiles.uid, found.user.id));
  const role: Role = profile?.role ?? 'patient';

  const now = dependencies.now ?? Date.now();
  const lastActivity = new Date(found.session.expiresAt).getTime() - sessionPolicy.patientInactivitySeconds * 1000;
  const idleSeconds = (now - lastActivity) / 1000;
  const ageSeconds = (now - new Date(found.session.createdAt).getTime()) / 1000;
  const inactivityLimit = role === 'patient' ? sessionPolicy.patientInactivitySeconds : sessionPolicy.staffInactivitySeconds;
  if (ageSeconds > sessionPolicy.absoluteSeconds || idleSeconds > inactivityLimit) {
    await auth.api.revokeSession({ headers, body: { token: found.session.token } }).catch(() => undefined);
    return null;
  }

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
