import 'server-only';
import { asc, desc } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { trials } from '@/db/schema';
import { requireActor } from '@/lib/server/authorization';
import type { SessionUser } from '@/lib/server/session';

/** A trial as the trials index lists it: what it is, not its participants (every signed-in role may see it). */
export type TrialSummary = { id: string; name: string; startDate: string; weeks: number; synthetic: boolean };

/** Every trial, newest start first: the index of /trials, from which each trial's own page is reached. */
export async function listTrials(options: {
  database: Database;
  viewer: Pick<SessionUser, 'id' | 'role'> | null;
}): Promise<TrialSummary[]> {
  requireActor(options.viewer);
  return options.database
    .select({ id: trials.id, name: trials.name, startDate: trials.startDate, weeks: trials.weeks, synthetic: trials.synthetic })
    .from(trials)
    .orderBy(desc(trials.startDate), asc(trials.id));
}
