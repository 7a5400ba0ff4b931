import { eq } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { type Role, userProfiles } from '@/db/schema';

/** Seed-spec §4/§8: session policy of issue 3 — absolute 12 hours; 30 minutes idle for patients, 15 for staff. */
export const sessionPolicy = {
  absoluteSeconds: 12 * 60 * 60,
  patientInactivitySeconds: 30 * 60,
  staffInactivitySeconds: 15 * 60,
  /** How often a used session records activity (better-auth's refresh of its updatedAt and expiresAt). */
  activityResolutionSeconds: 60,
} as const;

/**
 * Whether a session has ended under the policy. Its last activity is the stored `updatedAt`, which
 * better-auth moves only when it refreshes a used session (at most once per activityResolutionSeconds) —
 * never `expiresAt`, which the refresh has already pushed forward by the time a caller sees it.
 */
export function sessionHasEnded(options: { role: Role; createdAt: Date; lastActiveAt: Date; now: number }): boolean {
  const ageSeconds = (options.now - options.createdAt.getTime()) / 1000;
  const idleSeconds = (options.now - options.lastActiveAt.getTime()) / 1000;
  const inactivityLimit = options.role === 'patient' ? sessionPolicy.patientInactivitySeconds : sessionPolicy.staffInactivitySeconds;
  return ageSeconds > sessionPolicy.absoluteSeconds || idleSeconds > inactivityLimit;
}

type StoredSession = { session: { token: string; userId: string; createdAt: Date; updatedAt: Date } };

/**
 * Run before every better-auth endpoint that receives a session cookie (auth.ts, hooks.before), so that the
 * policy is applied before better-auth's own session lookup can refresh — and so revive — an idle session:
 * an ended session is deleted, and the endpoint then sees no session at all.
 */
export async function endSessionIfExpired(options: {
  database: Database;
  sessionToken: string;
  sessions: { findSession: (token: string) => Promise<StoredSession | null>; deleteSession: (token: string) => Promise<unknown> };
  now?: number;
}): Promise<boolean> {
  const found = await options.sessions.findSession(options.sessionToken);
  if (found === null) return false;
  const [profile] = await options.database
    .select({ role: userProfiles.role })
    .from(userProfiles)
    .where(eq(userProfiles.uid, found.session.userId));
  const ended = sessionHasEnded({
    role: profile?.role ?? 'patient',
    createdAt: new Date(found.session.createdAt),
    lastActiveAt: new Date(found.session.updatedAt),
    now: options.now ?? Date.now(),
  });
  if (ended) await options.sessions.deleteSession(found.session.token);
  return ended;
}
