import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobs } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { claimNextJob, enqueueJob, getJob, registerJobHandler, runClaimedJob, startJobWorker } from './jobs';

describe.each(testDatabaseBackends())('jobs on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('runs a queued job with its handler, recording progress, rate and result', async () => {
    registerJobHandler('test-count', async (job, context) => {
      const total = Number(job.payload.total);
      for (let done = 1; done <= total; done += 1) await context.reportProgress(done, total);
      return { counted: total };
    });
    const { id } = await enqueueJob({ database: database.database, kind: 'test-count', payload: { total: 5 }, createdBy: 'user-1' });
    expect((await getJob({ database: database.database, id }))?.status).toBe('queued');
    const worker = startJobWorker({ database: database.database, pollMilliseconds: 50 });
    try {
      await expect.poll(async () => (await getJob({ database: database.database, id }))?.status).toBe('succeeded');
    } finally {
      await worker.stop();
    }
    const job = await getJob({ database: database.database, id });
    expect(job).toMatchObject({ progressDone: 5, progressTotal: 5, result: { counted: 5 }, error: null, attempts: 1, createdBy: 'user-1' });
    expect(job?.rate).toBeGreaterThan(0);
    expect(job?.finishedAt).not.toBeNull();
  });

  it('records a failure with a message for people, never a stack trace', async () => {
    registerJobHandler('test-fail-app', async () => {
      throw new AppError('validation', 'Line 3: the date "31/02/2024" is not a date.');
    });
    registerJobHandler('test-fail-bug', async () => {
      throw new TypeError('cannot read properties of undefined');
    });
    for (const [kind, message] of [
      ['test-fail-app', 'Line 3: the date "31/02/2024" is not a date.'],
      ['test-fail-bug', 'The job failed on our side. Please try again.'],
    ] as const) {
      const { id } = await enqueueJob({ database: database.database, kind });
      const claimed = await claimNextJob({ database: database.database, kinds: [kind] });
      if (claimed === null) throw new Error('not claimed');
      await runClaimedJob({ database: database.database, job: claimed });
      expect(await getJob({ database: database.database, id })).toMatchObject({ status: 'failed', error: message });
    }
  });

  it('takes up an orphaned job again, from its checkpoint, and gives up after 3 attempts', async () => {
    const seen: (Record<string, unknown> | null)[] = [];
    registerJobHandler('test-resume', async (_job, context) => {
      seen.push(context.checkpoint);
      return { resumedFrom: context.checkpoint?.row ?? 0 };
    });
    const { id } = await enqueueJob({ database: database.database, kind: 'test-resume' });
    // A first run claimed it, saved a checkpoint, and its process died (no heartbeat since).
    const first = await claimNextJob({ database: database.database, kinds: ['test-resume'] });
    expect(first?.id).toBe(id);
    await database.database.update(jobs).set({ checkpoint: { row: 5000 } }).where(eq(jobs.id, id));
    expect(await claimNextJob({ database: database.database, kinds: ['test-resume'] })).toBeNull(); // still alive
    const later = new Date(Date.now() + 61_000);
    const again = await claimNextJob({ database: database.database, kinds: ['test-resume'], now: later });
    expect(again).toMatchObject({ id, attempts: 2, checkpoint: { row: 5000 } });
    if (again === null) throw new Error('not claimed');
    await runClaimedJob({ database: database.database, job: again });
    expect(seen).toEqual([{ row: 5000 }]);
    expect(await getJob({ database: database.database, id })).toMatchObject({ status: 'succeeded', result: { resumedFrom: 5000 } });

    const { id: dying } = await enqueueJob({ database: database.database, kind: 'test-resume' });
    await database.database.update(jobs).set({ status: 'running', attempts: 3, heartbeatAt: new Date(0) }).where(eq(jobs.id, dying));
    const last = await claimNextJob({ database: database.database, kinds: ['test-resume'] });
    if (last === null) throw new Error('not claimed');
    await runClaimedJob({ database: database.database, job: last });
    expect(await getJob({ database: database.database, id: dying })).toMatchObject({ status: 'failed', error: 'Stopped after 3 attempts that did not finish.' });
  });

  it('never gives one job to two claimers', async () => {
    for (let index = 0; index < 4; index += 1) await enqueueJob({ database: database.database, kind: 'test-claim' });
    const claims = await Promise.all(Array.from({ length: 6 }, () => claimNextJob({ database: database.database, kinds: ['test-claim'] })));
    const ids = claims.filter((claim) => claim !== null).map((claim) => claim?.id);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });
});
