import 'server-only';
/**
 * The nightly clock of the live policy: a 'policy-update' job each night at 03:00 UTC, keyed by its UTC date,
 * so one exists per night however many instances run. Each run first queues the next night's, then updates
 * (updateLivePolicy). ensurePolicyUpdate (at start-up) puts tonight's back if missing; it runs at once when its
 * time has passed, so a server that was down at 03:00 still learns that day.
 */
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { enqueueJob, type JobContext, type JobHandler } from '@/lib/server/jobs';
import { policyUpdateJobKind } from '../schemas';
import { updateLivePolicy } from './update-live-policy';

const dayMs = 86_400_000;
/** 03:00 UTC: the night in Europe and Africa, the evening in the Americas; the update is correct at any hour. */
export const policyUpdateMinuteUtc = 3 * 60;

const payloadSchema = z.object({}).strict();

/** `policy-update:2026-11-25`: the dedupe key of the night whose UTC date holds `at`. */
export function policyUpdateKey(at: Date): string {
  return `${policyUpdateJobKind}:${at.toISOString().slice(0, 10)}`;
}

/** Queues the update of the UTC date holding `at` (due at 03:00 that day, or `runAt`), unless it exists. */
export async function enqueuePolicyUpdate(options: {
  database: Database;
  at: Date;
  runAt?: Date;
}): Promise<{ id: string; created: boolean }> {
  const dayStart = Math.floor(options.at.getTime() / dayMs) * dayMs;
  return enqueueJob({
    database: options.database,
    kind: policyUpdateJobKind,
    runAt: options.runAt ?? new Date(dayStart + policyUpdateMinuteUtc * 60_000),
    dedupeKey: policyUpdateKey(options.at),
  });
}

/** At start-up: today's update exists (due at 03:00 UTC, at once if that has passed), so the nightly chain goes on. */
export async function ensurePolicyUpdate(options: { database: Database; now: Date }): Promise<{ id: string; created: boolean }> {
  return enqueuePolicyUpdate({ database: options.database, at: options.now });
}

export async function runPolicyUpdate(options: {
  database: Database;
  now: Date;
  payload: Record<string, unknown>;
  reportProgress?: JobContext['reportProgress'];
}): Promise<Record<string, unknown>> {
  const { database, now } = options;
  parseInput(payloadSchema, options.payload, { label: 'The policy update job' });
  // The next night first: a run that fails still leaves the chain going (and this one is retried).
  const next = await enqueuePolicyUpdate({ database, at: new Date(now.getTime() + dayMs) });
  const result = await updateLivePolicy({
    database,
    now,
    onPage: options.reportProgress === undefined ? undefined : (read) => options.reportProgress!(read),
  });
  return { ...result, nextUpdateJobId: next.id };
}

export function createPolicyUpdateHandler(database: () => Database, clock: () => Date = () => new Date()): JobHandler {
  return async (job, context) =>
    runPolicyUpdate({ database: database(), now: clock(), payload: job.payload, reportProgress: context.reportProgress });
}
