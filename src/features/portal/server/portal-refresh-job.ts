import 'server-only';
/**
 * The 'portal.refresh-aggregates' job (docs/decisions/039): rebuilds the portal's pre-aggregates. Chained
 * nightly like the policy update (each run first queues the next night's, due at 02:30 UTC; the server puts
 * tonight's back at start-up), queued after the demo seed, and queued by a portal view that finds aggregated
 * days changed since the last refresh (an import, an undo, a late dose record) — once per such change.
 * Since decision 050 it also keeps the per-patient pre-aggregate (portal-patient-summaries.ts): it builds the
 * periods views registered and rewrites the rows of patients whose dispensings changed; since decision 057 it
 * builds ahead every period the page offers at the data's last day (portal-periods-ahead.ts) and keeps the
 * demand forecast's pre-aggregate.
 */
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { enqueueJob, type JobHandler } from '@/lib/server/jobs';
import { portalRefreshJobKind } from '../schemas';
import { refreshPortalAggregates } from './portal-dose-slots';
import { findPeriodsUsersOpen } from './portal-periods-ahead';
import { refreshPortalPatientSummaries } from './portal-patient-summaries';
import { refreshPortalReplyCounts } from './portal-reply-counts';

const dayMs = 86_400_000;
const refreshMinuteUtc = 2 * 60 + 30;

/** Queues the nightly refresh of the UTC date holding `at` (due at 02:30 that day; at once when passed), unless it exists. */
export async function ensurePortalRefresh(options: { database: Database; at: Date }): Promise<{ id: string; created: boolean }> {
  const dayStart = Math.floor(options.at.getTime() / dayMs) * dayMs;
  return enqueueJob({
    database: options.database,
    kind: portalRefreshJobKind,
    runAt: new Date(dayStart + refreshMinuteUtc * 60_000),
    dedupeKey: `${portalRefreshJobKind}:${options.at.toISOString().slice(0, 10)}`,
  });
}

/** Queues a refresh now (after the demo seed or an import): no dedupe key, so it runs after the data changed. */
export async function queuePortalRefresh(options: { database: Database }): Promise<{ id: string }> {
  return enqueueJob({ database: options.database, kind: portalRefreshJobKind, payload: {} });
}

const payloadSchema = z.object({}).strict();

export function createPortalRefreshHandler(database: () => Database, clock: () => Date = () => new Date()): JobHandler {
  return async (job) => {
    parseInput(payloadSchema, job.payload, { label: 'The portal refresh job' });
    const now = clock();
    // Scheduled runs chain the next night's first, so a failed run still leaves the chain going.
    const nightly = job.dedupeKey !== null && /:\d{4}-\d{2}-\d{2}$/.test(job.dedupeKey);
    const next = nightly ? await ensurePortalRefresh({ database: database(), at: new Date(now.getTime() + dayMs) }) : null;
    const refreshed = await refreshPortalAggregates({ database: database(), now });
    // The per-patient pre-aggregate (decision 050): the periods views asked for, and (decision 057) every period the
    // page offers at the data's current last day, so a first view after new data reads built rows.
    const periods = await findPeriodsUsersOpen({ database: database(), now });
    const summaries = await refreshPortalPatientSummaries({ database: database(), now, periods });
    // The missed-dose reply counts of the patients whose replies changed (decision 061).
    const replyCounts = await refreshPortalReplyCounts({ database: database() });
    return { ...refreshed, patientSummaries: summaries, replyCountPatients: replyCounts.patients, nextRefreshJobId: next?.id ?? null };
  };
}
