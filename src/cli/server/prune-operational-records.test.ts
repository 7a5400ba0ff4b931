import { asc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobs, webhookEvents } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { claimNextJob, enqueueJob, getJob, registerJobHandler, runClaimedJob } from '@/lib/server/jobs';
import {
  createRecordsPruneHandler,
  ensureRecordsPrune,
  pruneOperationalRecords,
  recordsPruneJobKind,
  recordsPruneKey,
} from './prune-operational-records';

const now = new Date('2026-11-24T06:00:00Z');
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

describe.each(testDatabaseBackends())('the nightly prune of operational records on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.close();
  });

  it('removes finished jobs and webhook events past their retention, and nothing else', async () => {
    const db = database.database;
    const job = (
      name: string,
      status: 'queued' | 'running' | 'succeeded' | 'failed',
      finishedDaysAgo: number | null,
      createdDaysAgo = 400,
    ) => ({
      kind: 'test',
      dedupeKey: name,
      status,
      createdAt: daysAgo(createdDaysAgo),
      finishedAt: finishedDaysAgo === null ? null : daysAgo(finishedDaysAgo),
    });
    await db.insert(jobs).values([
      job('succeeded-31', 'succeeded', 31),
      job('succeeded-29', 'succeeded', 29),
      job('failed-91', 'failed', 91),
      job('failed-31', 'failed', 31),
      // Never finished: a queued or running job is never pruned, however old.
      job('queued-old', 'queued', null),
      job('running-old', 'running', null),
      // Finished without finished_at: its age is its creation.
      job('succeeded-unstamped-old', 'succeeded', null, 40),
      job('succeeded-unstamped-new', 'succeeded', null, 10),
    ]);
    const event = (key: string, receivedDaysAgo: number) => ({
      provider: 'whatsapp' as const,
      eventKey: key,
      kind: 'status' as const,
      providerMessageId: key,
      outcome: 'unknown-message' as const,
      occurredAt: daysAgo(receivedDaysAgo),
      receivedAt: daysAgo(receivedDaysAgo),
    });
    await db.insert(webhookEvents).values([event('old', 181), event('recent', 179)]);

    expect(await pruneOperationalRecords({ database: db, now })).toEqual({ succeededJobs: 2, failedJobs: 1, webhookEvents: 1 });
    const keptJobs = await db.select({ key: jobs.dedupeKey }).from(jobs).orderBy(asc(jobs.dedupeKey));
    expect(keptJobs.map((row) => row.key)).toEqual(['failed-31', 'queued-old', 'running-old', 'succeeded-29', 'succeeded-unstamped-new']);
    expect((await db.select({ key: webhookEvents.eventKey }).from(webhookEvents)).map((row) => row.key)).toEqual(['recent']);
    // A second run finds nothing more.
    expect(await pruneOperationalRecords({ database: db, now })).toEqual({ succeededJobs: 0, failedJobs: 0, webhookEvents: 0 });
  });

  it('runs nightly as the records-prune job: one per UTC night at 04:00, the next night queued first; a bad payload fails', async () => {
    const db = database.database;
    expect(await ensureRecordsPrune({ database: db, at: now })).toMatchObject({ created: true });
    expect(await ensureRecordsPrune({ database: db, at: new Date(now.getTime() + 3_600_000) })).toMatchObject({ created: false });
    const prunes = () => db.select({ key: jobs.dedupeKey, runAt: jobs.runAt }).from(jobs).where(eq(jobs.kind, recordsPruneJobKind));
    expect(await prunes()).toEqual([{ key: 'records-prune:2026-11-24', runAt: new Date('2026-11-24T04:00:00Z') }]);

    registerJobHandler(
      recordsPruneJobKind,
      createRecordsPruneHandler(
        () => db,
        () => now,
      ),
    );
    const bad = await enqueueJob({ database: db, kind: recordsPruneJobKind, payload: { everything: true }, runAt: new Date(0) });
    for (const expected of [bad.id, undefined]) {
      const claimed = await claimNextJob({ database: db, kinds: [recordsPruneJobKind], now });
      if (expected !== undefined) expect(claimed?.id).toBe(expected);
      await runClaimedJob({ database: db, job: claimed!, clock: () => now });
    }
    expect((await getJob({ database: db, id: bad.id }))!.error).toContain('everything');
    const [tonight] = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(eq(jobs.dedupeKey, recordsPruneKey(now)));
    expect(await getJob({ database: db, id: tonight!.id })).toMatchObject({
      status: 'succeeded',
      result: { succeededJobs: 0, failedJobs: 0, webhookEvents: 0 },
    });
    expect((await prunes()).map((row) => row.key).sort()).toEqual([null, 'records-prune:2026-11-24', 'records-prune:2026-11-25']);
  });
});
