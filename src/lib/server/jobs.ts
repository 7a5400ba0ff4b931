import 'server-only';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { isAppError } from '@/lib/errors';
import { getLogger } from '@/lib/logger';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export type JobRecord = {
  id: string;
  kind: string;
  status: JobStatus;
  payload: Record<string, unknown>;
  checkpoint: Record<string, unknown> | null;
  progressDone: number;
  progressTotal: number | null;
  rate: number | null;
  result: Record<string, unknown> | null;
  error: string | null;
  attempts: number;
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
};

export type JobContext = {
  /** Records progress (units done of total) and the rate; also proves the job is alive. */
  reportProgress: (done: number, total?: number | null) => Promise<void>;
  /** Where a resumed job continues: what the handler last saved, or null on the first run. */
  checkpoint: Record<string, unknown> | null;
  /**
   * Saves where the job is. Pass the transaction that did the work (`through`) to commit work and
   * checkpoint together; on the embedded database a statement outside an open transaction would wait for it.
   */
  saveCheckpoint: (value: Record<string, unknown>, options?: { through?: Database }) => Promise<void>;
  signal: AbortSignal;
};

export type JobHandler = (job: JobRecord, context: JobContext) => Promise<Record<string, unknown> | null>;

/** A job whose heartbeat is older than this was orphaned (its process stopped) and is taken up again. */
export const staleAfterSeconds = 60;
/** Runs after which a job that keeps dying is given up. */
export const maximumAttempts = 3;

const columns = {
  id: jobs.id,
  kind: jobs.kind,
  status: jobs.status,
  payload: jobs.payload,
  checkpoint: jobs.checkpoint,
  progressDone: jobs.progressDone,
  progressTotal: jobs.progressTotal,
  rate: jobs.rate,
  result: jobs.result,
  error: jobs.error,
  attempts: jobs.attempts,
  createdBy: jobs.createdBy,
  createdAt: jobs.createdAt,
  startedAt: jobs.startedAt,
  finishedAt: jobs.finishedAt,
};

type JobRow = {
  [Key in keyof typeof columns]: (typeof columns)[Key]['_']['notNull'] extends true
    ? (typeof columns)[Key]['_']['data']
    : (typeof columns)[Key]['_']['data'] | null;
};

function toRecord(row: JobRow): JobRecord {
  return {
    ...row,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

// Handlers are registered by the modules that own them; the registry lives on globalThis because the server
// entry and the Next.js bundle each load their own copy of this module.
const registryKey = Symbol.for('medaptive.job-handlers');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, JobHandler> };

function registry(): Map<string, JobHandler> {
  const holder = globalThis as GlobalWithRegistry;
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

export function registerJobHandler(kind: string, handler: JobHandler): void {
  registry().set(kind, handler);
}

export async function enqueueJob(options: {
  database: Database;
  kind: string;
  payload?: Record<string, unknown>;
  createdBy?: string | null;
}): Promise<{ id: string }> {
  const [row] = await options.database
    .insert(jobs)
    .values({ kind: options.kind, payload: options.payload ?? {}, createdBy: options.createdBy ?? null })
    .returning({ id: jobs.id });
  if (row === undefined) throw new Error('The job could not be stored.');
  return row;
}

export async function getJob(options: { database: Database; id: string }): Promise<JobRecord | null> {
  if (!/^[0-9a-f-]{36}$/i.test(options.id)) return null;
  const [row] = await options.database.select(columns).from(jobs).where(eq(jobs.id, options.id));
  return row === undefined ? null : toRecord(row);
}

/**
 * Takes the oldest runnable job of the given kinds: queued, or running but orphaned (stale heartbeat).
 * FOR UPDATE SKIP LOCKED lets several instances claim at once without taking the same job.
 */
export async function claimNextJob(options: { database: Database; kinds: string[]; now?: Date }): Promise<JobRecord | null> {
  if (options.kinds.length === 0) return null;
  const now = options.now ?? new Date();
  const staleBefore = new Date(now.getTime() - staleAfterSeconds * 1000);
  return options.database.transaction(async (transaction) => {
    const [candidate] = await transaction
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, options.kinds),
          or(eq(jobs.status, 'queued'), and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore))),
        ),
      )
      .orderBy(jobs.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    if (candidate === undefined) return null;
    const [claimed] = await transaction
      .update(jobs)
      .set({
        status: 'running',
        attempts: sql`${jobs.attempts} + 1`,
        startedAt: sql`coalesce(${jobs.startedAt}, ${now.toISOString()}::timestamptz)`,
        heartbeatAt: now,
      })
      .where(eq(jobs.id, candidate.id))
      .returning(columns);
    return claimed === undefined ? null : toRecord(claimed);
  });
}

async function finish(database: Database, id: string, outcome: { result?: Record<string, unknown> | null; error?: string }): Promise<void> {
  await database
    .update(jobs)
    .set({
      status: outcome.error === undefined ? 'succeeded' : 'failed',
      result: outcome.result ?? null,
      error: outcome.error ?? null,
      finishedAt: new Date(),
      heartbeatAt: new Date(),
    })
    .where(eq(jobs.id, id));
}

/** Runs one claimed job to its end with its registered handler. */
export async function runClaimedJob(options: { database: Database; job: JobRecord; signal?: AbortSignal }): Promise<void> {
  const { database, job } = options;
  const handler = registry().get(job.kind);
  if (handler === undefined) {
    await finish(database, job.id, { error: `No handler for jobs of kind "${job.kind}".` });
    return;
  }
  if (job.attempts > maximumAttempts) {
    await finish(database, job.id, { error: `Stopped after ${maximumAttempts} attempts that did not finish.` });
    return;
  }
  const startedAt = Date.now();
  const heartbeat = setInterval(() => {
    void database.update(jobs).set({ heartbeatAt: new Date() }).where(eq(jobs.id, job.id)).catch(() => undefined);
  }, (staleAfterSeconds * 1000) / 4);
  const context: JobContext = {
    checkpoint: job.checkpoint,
    signal: options.signal ?? new AbortController().signal,
    reportProgress: async (done, total) => {
      const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
      await database
        .update(jobs)
        .set({ progressDone: done, ...(total === undefined ? {} : { progressTotal: total }), rate: done / seconds, heartbeatAt: new Date() })
        .where(eq(jobs.id, job.id));
    },
    saveCheckpoint: async (value, saveOptions) => {
      await (saveOptions?.through ?? database)
        .update(jobs).set({ checkpoint: value, heartbeatAt: new Date() }).where(eq(jobs.id, job.id));
    },
  };
  try {
    await finish(database, job.id, { result: await handler(job, context) });
  } catch (error) {
    // AppErrors carry messages meant for people; anything else is logged and summarised.
    const message = isAppError(error) ? error.message : 'The job failed on our side. Please try again.';
    if (!isAppError(error)) getLogger().error({ jobId: job.id, kind: job.kind, errorName: (error as Error)?.name }, 'job failed');
    await finish(database, job.id, { error: message });
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Polls for jobs of the registered kinds and runs them one at a time in this process. Returns a stop
 * function; a job still running when the process ends is taken up again (from its checkpoint) later.
 */
export function startJobWorker(options: { database: Database; pollMilliseconds?: number }): { stop: () => Promise<void> } {
  const controller = new AbortController();
  let running: Promise<void> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async () => {
    if (controller.signal.aborted) return;
    try {
      const job = await claimNextJob({ database: options.database, kinds: [...registry().keys()] });
      if (job !== null) {
        running = runClaimedJob({ database: options.database, job, signal: controller.signal });
        await running;
        timer = setTimeout(() => void tick(), 0);
        return;
      }
    } catch (error) {
      getLogger().warn({ errorName: (error as Error)?.name }, 'job worker could not claim a job');
    }
    timer = setTimeout(() => void tick(), options.pollMilliseconds ?? 1000);
  };
  timer = setTimeout(() => void tick(), 0);
  return {
    stop: async () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
