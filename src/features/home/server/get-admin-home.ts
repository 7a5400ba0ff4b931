import 'server-only';
import { and, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { authUsers, jobs, userProfiles } from '@/db/schema';
import { importJobKinds, importUndoJobKind } from '@/features/data-import';
import { type Role, roles } from '@/lib/domain/roles';
import { requirePermission } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';

/** How far back the home looks for failed jobs and new accounts. */
export const ADMIN_HOME_WINDOW_DAYS = 7;
const FAILED_JOBS_SHOWN = 10;
const ERROR_PREVIEW_CHARACTERS = 160;

export type FailedJob = { id: string; kind: string; finishedAt: string | null; attempts: number; error: string | null };

export type AdminHome = {
  /** Import and import-undo jobs waiting or running now. */
  importsWaiting: number;
  importsRunning: number;
  /** Jobs that failed for good (retries spent) in the window, newest first, and how many in all. */
  failedJobs: FailedJob[];
  failedJobCount: number;
  /** Accounts by role, and those created in the window (they start as patients until given a role). */
  usersByRole: Record<Role, number>;
  newUsers: number;
  /** ISO time the window starts. */
  since: string;
};

/**
 * What waits for an administrator: imports in the queue, background jobs that failed, and new accounts —
 * each counted from its own table at the moment of the request.
 */
export async function getAdminHome(options: { database: Database; actor: SessionUser | null; now?: Date }): Promise<AdminHome> {
  const { database } = options;
  await requirePermission({ actor: options.actor, permission: 'users:administer', message: 'Only administrators see pending work.' });
  const since = new Date((options.now ?? new Date()).getTime() - ADMIN_HOME_WINDOW_DAYS * 86_400_000);
  const importKinds = [importJobKinds.fhir, importJobKinds.csv, importUndoJobKind];
  const recentlyFailed = and(eq(jobs.status, 'failed'), gte(jobs.finishedAt, since));

  const [importRows, failedRows, [failedTotal], roleRows, [created]] = await Promise.all([
    database
      .select({ status: jobs.status, jobs: count() })
      .from(jobs)
      .where(and(inArray(jobs.kind, importKinds), inArray(jobs.status, ['queued', 'running'])))
      .groupBy(jobs.status),
    database
      .select({ id: jobs.id, kind: jobs.kind, finishedAt: jobs.finishedAt, attempts: jobs.attempts, error: jobs.error })
      .from(jobs)
      .where(recentlyFailed)
      .orderBy(desc(jobs.finishedAt))
      .limit(FAILED_JOBS_SHOWN),
    database.select({ jobs: count() }).from(jobs).where(recentlyFailed),
    database.select({ role: userProfiles.role, users: count() }).from(userProfiles).groupBy(userProfiles.role),
    database.select({ users: count() }).from(authUsers).where(gte(authUsers.createdAt, since)),
  ]);

  const usersByRole = Object.fromEntries(roles.map((role) => [role, 0])) as Record<Role, number>;
  for (const row of roleRows) usersByRole[row.role] = row.users;
  return {
    importsWaiting: importRows.find((row) => row.status === 'queued')?.jobs ?? 0,
    importsRunning: importRows.find((row) => row.status === 'running')?.jobs ?? 0,
    failedJobs: failedRows.map((row) => ({
      id: row.id,
      kind: row.kind,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      attempts: row.attempts,
      // The first line only: enough to tell failures apart; the job record keeps the rest.
      error: row.error === null ? null : (row.error.split('\n')[0] ?? '').slice(0, ERROR_PREVIEW_CHARACTERS),
    })),
    failedJobCount: failedTotal?.jobs ?? 0,
    usersByRole,
    newUsers: created?.users ?? 0,
    since: since.toISOString(),
  };
}
