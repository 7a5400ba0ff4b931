import 'server-only';
/**
 * The daily loop's clock: a 'messaging-plan' job each hour. Every run plans the day of the patients whose
 * local day has reached the planning time, fills the rewards of days that ended, and — when it is the hourly
 * tick rather than a one-off (a payload naming patients or devSendNow) — queues the next hour's tick under a
 * key per hour, so however many instances run it, one tick exists per hour. It is a jobs row, so it survives
 * restarts; ensureMessagingTick (at start-up) puts this hour's tick back if it is missing.
 */
import { z } from '@/lib/zod';
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { enqueueJob, type JobHandler } from '@/lib/server/jobs';
import { fillDecisionRewards } from './fill-decision-rewards';
import { planMessagingDay } from './plan-messaging-day';
import { messagingPlanJobKind } from '@/lib/messaging-job-kinds';

const hourMs = 3_600_000;

const payloadSchema = z.object({
  patientIds: z.array(z.string().uuid()).max(10_000).optional(),
  devSendNow: z.boolean().optional(),
});

/** `messaging-plan:2026-11-24T10`: the dedupe key of the tick of the UTC hour holding `at`. */
export function messagingTickKey(at: Date): string {
  return `${messagingPlanJobKind}:${at.toISOString().slice(0, 13)}`;
}

/** Queues the tick of the hour holding `at` (due at `runAt`, default the hour's start), unless it exists. */
export async function enqueueMessagingTick(options: {
  database: Database;
  at: Date;
  runAt?: Date;
}): Promise<{ id: string; created: boolean }> {
  const hourStart = new Date(Math.floor(options.at.getTime() / hourMs) * hourMs);
  return enqueueJob({
    database: options.database,
    kind: messagingPlanJobKind,
    runAt: options.runAt ?? hourStart,
    dedupeKey: messagingTickKey(hourStart),
  });
}

/** At start-up: this hour's tick exists (and runs now if it has not run), so the chain of ticks goes on. */
export async function ensureMessagingTick(options: { database: Database; now: Date }): Promise<{ id: string; created: boolean }> {
  return enqueueMessagingTick({ database: options.database, at: options.now, runAt: options.now });
}

export async function runMessagingTick(options: {
  database: Database;
  now: Date;
  payload: Record<string, unknown>;
}): Promise<Record<string, unknown>> {
  const { database, now } = options;
  const payload = parseInput(payloadSchema, options.payload, { label: 'The messaging plan job' });
  const recurring = payload.patientIds === undefined && payload.devSendNow !== true;
  // The next tick first: a run that fails part-way still leaves the chain going.
  const next = recurring ? await enqueueMessagingTick({ database, at: new Date(now.getTime() + hourMs) }) : null;
  const planned = await planMessagingDay({ database, now, patientIds: payload.patientIds, devSendNow: payload.devSendNow });
  const rewards = await fillDecisionRewards({ database, now });
  return { ...planned, rewarded: rewards.rewarded, nextTickJobId: next?.id ?? null };
}

export function createMessagingPlanHandler(database: () => Database, clock: () => Date = () => new Date()): JobHandler {
  return async (job) => runMessagingTick({ database: database(), now: clock(), payload: job.payload });
}
