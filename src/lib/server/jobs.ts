import 'server-only';
import { and, asc, eq, inArray, lt, lte, or, param, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import { type ErrorCode, isAppError } from '@/lib/errors';
import type { JobDto, JobStatus } from '@/lib/jobs-dto';
import { getLogger } from '@/lib/logger';

export type { JobStatus } from '@/lib/jobs-dto';

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
  runAt: string;
  dedupeKey: string | null;
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
/** Runs after which a job that keeps failing or dying is given up. */
export const maximumAttempts = 3;

/**
 * Named queues and how many of their jobs one process runs at once. Each queue has its own slots, so a
 * long import never delays message sends. A handler registers with its queue ('default' unless it says).
 */
export const jobQueues = { imports: 1, messages: 4, simulations: 1, default: 2 } as const satisfies Record<string, number>;
export type JobQueue = keyof typeof jobQueues;

/** The wait before retry number `attempt` (1 after the first failure): 30 s, 60 s, 120 s … at most 15 minutes. */
export function retryDelayMilliseconds(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(attempt - 1, 0), 15 * 60_000);
}

/**
 * AppErrors with these codes are passing trouble (a provider refusing for now, a database away) and are
 * retried like any unexpected error; every other AppError (bad data, no permission) fails the job at once,
 * since running it again would give the same answer.
 */
const retriedErrorCodes: ReadonlySet<ErrorCode> = new Set(['internal', 'unavailable', 'rate_limited']);

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  runAt: jobs.runAt,
  dedupeKey: jobs.dedupeKey,
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
    runAt: row.runAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** What GET /api/jobs/[id] answers: progress and outcome; the payload (an uploaded file) and the checkpoint stay here. */
export function toJobDto(job: JobRecord): JobDto {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    progressDone: job.progressDone,
    progressTotal: job.progressTotal,
    rate: job.rate,
    result: job.result,
    error: job.error,
    attempts: job.attempts,
    runAt: job.runAt,
    createdAt: job.createdAt,
    startedAt: job.startedAt,
    finishedAt: job.finishedAt,
  };
}

type RegisteredHandler = { handler: JobHandler; queue: JobQueue };

// Handlers are registered by the modules that own them; the registry lives on globalThis because the server
// entry and the Next.js bundle each load their own copy of this module.
const registryKey = Symbol.for('medaptive.job-handlers');
type GlobalWithRegistry = typeof globalThis & { [registryKey]?: Map<string, RegisteredHandler> };

function registry(): Map<string, RegisteredHandler> {
  const holder = globalThis as GlobalWithRegistry;
  holder[registryKey] ??= new Map();
  return holder[registryKey];
}

/** Registers the handler of a kind of job, on its queue ('default' unless given). */
export function registerJobHandler(kind: string, handler: JobHandler, options: { queue?: JobQueue } = {}): void {
  registry().set(kind, { handler, queue: options.queue ?? 'default' });
}

/** The kinds registered on a queue: what a worker slot of that queue may claim. */
export function jobKindsOfQueue(queue: JobQueue): string[] {
  return [...registry()].filter(([, registered]) => registered.queue === queue).map(([kind]) => kind);
}

/**
 * Stores a job. It is not claimed before `runAt` (default: now). With a `dedupeKey`, a job already stored
 * under that key (in any state, however old) is answered instead of a second one (`created: false`), so the
 * same work ("message-send:<patient>:<date>") is never queued twice, even by two requests at the same moment.
 */
export async function enqueueJob(options: {
  database: Database;
  kind: string;
  payload?: Record<string, unknown>;
  createdBy?: string | null;
  runAt?: Date;
  dedupeKey?: string;
}): Promise<{ id: string; created: boolean }> {
  const values = {
    kind: options.kind,
    payload: options.payload ?? {},
    createdBy: options.createdBy ?? null,
    dedupeKey: options.dedupeKey ?? null,
    // The clock claimNextJob compares with (JavaScript, whole milliseconds): the database's now() has microseconds,
    // so a job stored a moment before a claim in the same millisecond looked not yet due and waited a poll (a flaky test).
    runAt: options.runAt ?? new Date(),
  };
  if (options.dedupeKey === undefined) {
    const [row] = await options.database.insert(jobs).values(values).returning({ id: jobs.id });
    if (row === undefined) throw new Error('The job could not be stored.');
    return { id: row.id, created: true };
  }
  // ON CONFLICT DO NOTHING waits for a concurrent insert of the same key to commit, then skips; the
  // select that follows (a new snapshot) sees that row.
  const [inserted] = await options.database
    .insert(jobs)
    .values(values)
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  if (inserted !== undefined) return { id: inserted.id, created: true };
  const [existing] = await options.database.select({ id: jobs.id }).from(jobs).where(eq(jobs.dedupeKey, options.dedupeKey));
  if (existing === undefined) throw new Error('The job could not be stored.');
  return { id: existing.id, created: false };
}

export type JobToEnqueue = { kind: string; payload?: Record<string, unknown>; runAt?: Date; dedupeKey: string; createdBy?: string | null };

/** Jobs per insert statement. */
const enqueueBatchSize = 1000;

/**
 * Stores many jobs in a few statements (the daily loop's sends), with enqueueJob's dedupe semantics: a job
 * whose key is already stored, in any state, is answered (`created: false`) rather than stored again. Every
 * job needs a key, which is what makes a bulk insert safe to repeat. Answers in the order given; a key given
 * twice is stored once.
 */
export async function enqueueJobs(options: {
  database: Database;
  jobs: readonly JobToEnqueue[];
}): Promise<{ id: string; dedupeKey: string; created: boolean }[]> {
  const answered = new Map<string, { id: string; created: boolean }>();
  const now = new Date();
  for (let start = 0; start < options.jobs.length; start += enqueueBatchSize) {
    const unique = new Map<string, JobToEnqueue>();
    for (const job of options.jobs.slice(start, start + enqueueBatchSize)) {
      if (!answered.has(job.dedupeKey) && !unique.has(job.dedupeKey)) unique.set(job.dedupeKey, job);
    }
    if (unique.size === 0) continue;
    const batch = [...unique.values()];
    // One array per column through unnest: five parameters whatever the batch size (drizzle's multi-row insert
    // spends longer building the statement than PostgreSQL spends inserting).
    const inserted = (
      (await options.database.execute(sql`
        insert into jobs (kind, payload, created_by, dedupe_key, run_at)
        select * from unnest(
          ${param(batch.map((job) => job.kind))}::text[],
          ${param(batch.map((job) => JSON.stringify(job.payload ?? {})))}::jsonb[],
          ${param(batch.map((job) => job.createdBy ?? null))}::text[],
          ${param(batch.map((job) => job.dedupeKey))}::text[],
          ${param(batch.map((job) => (job.runAt ?? now).toISOString()))}::timestamptz[]
        )
        on conflict (dedupe_key) do nothing
        returning id, dedupe_key as "dedupeKey"`)) as unknown as { rows: { id: string; dedupeKey: string | null }[] }
    ).rows;
    for (const row of inserted) answered.set(row.dedupeKey!, { id: row.id, created: true });
    const missing = [...unique.keys()].filter((key) => !answered.has(key));
    if (missing.length > 0) {
      const existing = await options.database
        .select({ id: jobs.id, dedupeKey: jobs.dedupeKey })
        .from(jobs)
        .where(inArray(jobs.dedupeKey, missing));
      for (const row of existing) answered.set(row.dedupeKey!, { id: row.id, created: false });
    }
  }
  return options.jobs.map((job) => {
    const answer = answered.get(job.dedupeKey);
    if (answer === undefined) throw new Error('The job could not be stored.');
    return { ...answer, dedupeKey: job.dedupeKey };
  });
}

/** The job with this id, or null (also for an id that is not a UUID, which no job has). */
export async function getJob(options: { database: Database; id: string }): Promise<JobRecord | null> {
  if (!uuidPattern.test(options.id)) return null;
  const [row] = await options.database.select(columns).from(jobs).where(eq(jobs.id, options.id));
  return row === undefined ? null : toRecord(row);
}

/**
 * Takes the runnable job of the given kinds that has been due longest: queued with run_at reached, or
 * running but orphaned (stale heartbeat). FOR UPDATE SKIP LOCKED lets several instances claim at once
 * without taking the same job.
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
          or(and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)), and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, staleBefore))),
        ),
      )
      .orderBy(asc(jobs.runAt), asc(jobs.createdAt))
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

// Outcomes are written only while the job is still this run's (same attempt): a run whose job was taken
// over as orphaned must not overwrite the run that took it.
const ofThisRun = (job: JobRecord) => and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts));

async function finish(
  database: Database,
  job: JobRecord,
  at: Date,
  outcome: { result?: Record<string, unknown> | null; error?: string },
): Promise<void> {
  await database
    .update(jobs)
    .set({
      status: outcome.error === undefined ? 'succeeded' : 'failed',
      result: outcome.result ?? null,
      error: outcome.error ?? null,
      finishedAt: at,
      heartbeatAt: at,
    })
    .where(ofThisRun(job));
}

/** Puts the job back in the queue, due at `runAt`, keeping the last error for whoever looks. */
async function requeue(
  database: Database,
  job: JobRecord,
  runAt: Date,
  changes: { error?: string; attempts?: number } = {},
): Promise<void> {
  await database
    .update(jobs)
    .set({ status: 'queued', runAt, heartbeatAt: null, ...changes })
    .where(ofThisRun(job));
}

/**
 * Runs one claimed job to its end with its registered handler. A thrown error that running again could
 * cure (anything but an AppError meant for people, or an AppError marked passing) puts the job back with
 * exponential backoff until `maximumAttempts`, then fails it. `clock` is injectable for tests.
 */
export async function runClaimedJob(options: {
  database: Database;
  job: JobRecord;
  signal?: AbortSignal;
  clock?: () => Date;
}): Promise<void> {
  const { database, job } = options;
  const clock = options.clock ?? (() => new Date());
  const registered = registry().get(job.kind);
  if (registered === undefined) {
    await finish(database, job, clock(), { error: `No handler for jobs of kind "${job.kind}".` });
    return;
  }
  if (job.attempts > maximumAttempts) {
    await finish(database, job, clock(), { error: `Stopped after ${maximumAttempts} attempts that did not finish.` });
    return;
  }
  const signal = options.signal ?? new AbortController().signal;
  const startedAt = Date.now();
  const heartbeat = setInterval(
    () => {
      void database
        .update(jobs)
        .set({ heartbeatAt: new Date() })
        .where(eq(jobs.id, job.id))
        .catch(() => undefined);
    },
    (staleAfterSeconds * 1000) / 4,
  );
  const context: JobContext = {
    checkpoint: job.checkpoint,
    signal,
    reportProgress: async (done, total) => {
      const seconds = Math.max((Date.now() - startedAt) / 1000, 0.001);
      await database
        .update(jobs)
        .set({
          progressDone: done,
          ...(total === undefined ? {} : { progressTotal: total }),
          rate: done / seconds,
          heartbeatAt: new Date(),
        })
        .where(eq(jobs.id, job.id));
    },
    saveCheckpoint: async (value, saveOptions) => {
      await (saveOptions?.through ?? database).update(jobs).set({ checkpoint: value, heartbeatAt: new Date() }).where(eq(jobs.id, job.id));
    },
  };
  try {
    const result = await registered.handler(job, context);
    await finish(database, job, clock(), { result });
  } catch (error) {
    if (signal.aborted) {
      // Stopped because this process is shutting down, not because the job failed: due again at once, and
      // this run does not count as an attempt.
      await requeue(database, job, clock(), { attempts: job.attempts - 1 });
      return;
    }
    // AppErrors carry messages meant for people; anything else is logged and summarised.
    const message = isAppError(error) ? error.message : 'The job failed on our side. Please try again.';
    if (!isAppError(error))
      getLogger().error({ jobId: job.id, kind: job.kind, attempt: job.attempts, errorName: (error as Error)?.name }, 'job failed');
    const retried = !isAppError(error) || retriedErrorCodes.has(error.code);
    const now = clock();
    if (retried && job.attempts < maximumAttempts)
      await requeue(database, job, new Date(now.getTime() + retryDelayMilliseconds(job.attempts)), { error: message });
    else await finish(database, job, now, { error: message });
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * Polls for due jobs of the registered kinds and runs them in this process, each queue up to its own
 * concurrency (`jobQueues`, overridable). Returns a stop function; a job still running when the process
 * ends is taken up again (from its checkpoint) later.
 */
export function startJobWorker(options: {
  database: Database;
  pollMilliseconds?: number;
  concurrency?: Partial<Record<JobQueue, number>>;
  clock?: () => Date;
}): { stop: () => Promise<void> } {
  const controller = new AbortController();
  const clock = options.clock ?? (() => new Date());
  const queues = Object.keys(jobQueues) as JobQueue[];
  const running = new Map<JobQueue, Set<Promise<void>>>(queues.map((queue) => [queue, new Set()]));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let ticking: Promise<void> | null = null;
  let tickAgain = false;

  const schedule = (milliseconds: number) => {
    if (controller.signal.aborted) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => void tick(), milliseconds);
  };
  // Look for work now (a slot came free): at once, or straight after the round in progress.
  const wake = () => {
    if (ticking !== null) tickAgain = true;
    else schedule(0);
  };

  const start = (queue: JobQueue, job: JobRecord) => {
    const slots = running.get(queue)!;
    const run: Promise<void> = runClaimedJob({ database: options.database, job, signal: controller.signal, clock })
      .catch((error: unknown) => {
        getLogger().error({ jobId: job.id, kind: job.kind, errorName: (error as Error)?.name }, 'job outcome could not be recorded');
      })
      .finally(() => {
        slots.delete(run);
        wake();
      });
    slots.add(run);
  };

  const claimRound = async () => {
    for (const queue of queues) {
      const kinds = jobKindsOfQueue(queue);
      const limit = options.concurrency?.[queue] ?? jobQueues[queue];
      const slots = running.get(queue)!;
      while (kinds.length > 0 && slots.size < limit && !controller.signal.aborted) {
        const job = await claimNextJob({ database: options.database, kinds, now: clock() });
        if (job === null) break;
        // Claimed just as the worker was told to stop: hand it back untouched.
        if (controller.signal.aborted) await requeue(options.database, job, clock(), { attempts: job.attempts - 1 });
        else start(queue, job);
      }
    }
  };

  const tick = async () => {
    if (controller.signal.aborted) return;
    if (ticking !== null) {
      tickAgain = true;
      return;
    }
    ticking = claimRound()
      .catch((error: unknown) => {
        getLogger().warn({ errorName: (error as Error)?.name }, 'job worker could not claim a job');
      })
      .finally(() => {
        ticking = null;
      });
    await ticking;
    if (tickAgain) {
      tickAgain = false;
      schedule(0);
    } else schedule(options.pollMilliseconds ?? 1000);
  };

  schedule(0);
  return {
    stop: async () => {
      controller.abort();
      if (timer !== undefined) clearTimeout(timer);
      await ticking;
      await Promise.all([...running.values()].flatMap((slots) => [...slots]));
    },
  };
}
