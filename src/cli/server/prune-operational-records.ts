import 'server-only';
/**
 * The nightly prune of operational records (docs/decisions/037): finished background jobs and the webhook
 * event log past their retention (src/lib/domain/retention.ts). It runs as a 'records-prune' job at 04:00 UTC,
 * chained like the policy update: each run first queues the next night's, and the server puts tonight's back
 * at start-up if the chain broke. Deletes go in batches so no statement holds locks for long.
 *
 * Here rather than in a feature: it composes tables of several owners (the job queue of src/lib/server, the
 * webhook log of messaging-webhooks) and no page reads it (decision 008: composition happens above features).
 */
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { jobs, webhookEvents } from '@/db/schema';
import { retentionDays } from '@/lib/domain/retention';
import { parseInput } from '@/lib/parse-input';
import { enqueueJob, type JobHandler } from '@/lib/server/jobs';

export const recordsPruneJobKind = 'records-prune';
const dayMs = 86_400_000;
const pruneMinuteUtc = 4 * 60;
const batchSize = 5_000;

export type PruneResult = { succeededJobs: number; failedJobs: number; webhookEvents: number };

async function deleteInBatches(next: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await next();
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

/** Removes what is past its retention at `now`; returns how many rows of each kind went. */
export async function pruneOperationalRecords(options: { database: Database; now: Date }): Promise<PruneResult> {
  const { database, now } = options;
  const before = (days: number) => new Date(now.getTime() - days * dayMs);
  const pruneJobs = (status: 'succeeded' | 'failed', days: number) =>
    deleteInBatches(async () => {
      const batch = database
        .select({ id: jobs.id })
        .from(jobs)
        // finished_at is set when a job ends; a finished job without it (none are written so) falls back to created_at.
        .where(and(eq(jobs.status, status), lt(sql`coalesce(${jobs.finishedAt}, ${jobs.createdAt})`, before(days))))
        .limit(batchSize);
      const rows = await database.delete(jobs).where(inArray(jobs.id, batch)).returning({ id: jobs.id });
      return rows.length;
    });
  const succeededJobs = await pruneJobs('succeeded', retentionDays.succeededJobs);
  const failedJobs = await pruneJobs('failed', retentionDays.failedJobs);
  const webhookEventCount = await deleteInBatches(async () => {
    const batch = database
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(lt(webhookEvents.receivedAt, before(retentionDays.webhookEvents)))
      .limit(batchSize);
    const rows = await database.delete(webhookEvents).where(inArray(webhookEvents.id, batch)).returning({ id: webhookEvents.id });
    return rows.length;
  });
  return { succeededJobs, failedJobs, webhookEvents: webhookEventCount };
}

/** `records-prune:2026-11-25`: one prune per UTC night however many instances run. */
export function recordsPruneKey(at: Date): string {
  return `${recordsPruneJobKind}:${at.toISOString().slice(0, 10)}`;
}

/** Queues the prune of the UTC date holding `at` (due at 04:00 that day; at once when that has passed), unless it exists. */
export async function ensureRecordsPrune(options: { database: Database; at: Date }): Promise<{ id: string; created: boolean }> {
  const dayStart = Math.floor(options.at.getTime() / dayMs) * dayMs;
  return enqueueJob({
    database: options.database,
    kind: recordsPruneJobKind,
    runAt: new Date(dayStart + pruneMinuteUtc * 60_000),
    dedupeKey: recordsPruneKey(options.at),
  });
}

const payloadSchema = z.object({}).strict();

export function createRecordsPruneHandler(database: () => Database, clock: () => Date = () => new Date()): JobHandler {
  return async (job) => {
    parseInput(payloadSchema, job.payload, { label: 'The records prune job' });
    const now = clock();
    // The next night first: a run that fails still leaves the chain going (and this one is retried).
    const next = await ensureRecordsPrune({ database: database(), at: new Date(now.getTime() + dayMs) });
    const pruned = await pruneOperationalRecords({ database: database(), now });
    return { ...pruned, nextPruneJobId: next.id };
  };
}
