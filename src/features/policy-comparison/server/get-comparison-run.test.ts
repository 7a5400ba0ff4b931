import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, jobs } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { claimNextJob, enqueueJob, runClaimedJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import { comparePolicies } from './compare-policies';
import { findLatestComparisonRun } from './find-latest-comparison-run';
import { getComparisonRun } from './get-comparison-run';
import './register-comparison-job';
import { comparisonJobKind } from './start-policy-comparison';

const person = (id: string, role: SessionUser['role']): SessionUser => ({
  id,
  email: `${id}@example.org`,
  name: id,
  role,
  phoneNumber: null,
  twoFactorEnabled: false,
});
const owner = person('patient-1', 'patient');
const settings = { patients: 100, seed: 4242, smsPrice: 0.04, whatsappPrice: 0.02 };

describe.each(testDatabaseBackends())('getComparisonRun and findLatestComparisonRun on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const start = (createdBy: string, payload: Record<string, unknown> = settings) =>
    enqueueJob({ database: database.database, kind: comparisonJobKind, payload, createdBy });

  it('shows its creator a queued run with its settings, then its stored result once the job has run', async () => {
    const { id } = await start(owner.id);
    expect(await getComparisonRun({ database: database.database, actor: owner, id })).toEqual({
      id,
      status: 'queued',
      settings,
      progressDone: 0,
      progressTotal: null,
      rate: null,
      comparison: null,
      error: null,
      createdAt: expect.any(String),
      finishedAt: null,
    });
    // Simulated here first, so the job prices the cached cohort rather than starting a worker thread.
    const expected = comparePolicies({ settings });
    const claimed = await claimNextJob({ database: database.database, kinds: [comparisonJobKind] });
    await runClaimedJob({ database: database.database, job: claimed! });
    const finished = await getComparisonRun({ database: database.database, actor: owner, id });
    expect(finished).toMatchObject({ id, status: 'succeeded', error: null, finishedAt: expect.any(String) });
    expect(finished.comparison).toEqual(expected);
    expect(finished.progressDone).toBe(finished.progressTotal);
  });

  it('says in words why a run failed', async () => {
    const { id } = await start(owner.id, { patients: 5, seed: 1, smsPrice: 0, whatsappPrice: 0 });
    const claimed = await claimNextJob({ database: database.database, kinds: [comparisonJobKind] });
    await runClaimedJob({ database: database.database, job: claimed! });
    expect(await getComparisonRun({ database: database.database, actor: owner, id })).toMatchObject({
      status: 'failed',
      settings: null,
      comparison: null,
      error: 'The queued comparison is not valid: patients: Cohort size must be a whole number from 100 to 50,000 patients.',
    });
  });

  it("answers another user's run like a missing one, and audits the refusal; an admin may read it", async () => {
    const { id } = await start(owner.id);
    const request = { requestId: 'request-run-1', clientAddress: '198.51.100.7' };
    const other = person('clinician-2', 'clinician');
    const refusal = getComparisonRun({ database: database.database, actor: other, id, request });
    await expect(refusal).rejects.toMatchObject({ code: 'not_found' });
    const unknown = getComparisonRun({ database: database.database, actor: owner, id: '0b6c2f0e-1111-4222-8333-444455556666' });
    await expect(unknown).rejects.toMatchObject({ code: 'not_found' });
    // The same words for both: nothing tells the other user the run exists.
    expect((await refusal.catch((error: Error) => error.message)) as string).toBe(await unknown.catch((error: Error) => error.message));
    const rows = await database.database
      .select({ action: auditLog.action, outcome: auditLog.outcome, actorUserId: auditLog.actorUserId, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.requestId, 'request-run-1'));
    expect(rows).toEqual([
      { action: 'job.view', outcome: 'denied', actorUserId: 'clinician-2', details: { jobId: id, kind: comparisonJobKind } },
    ]);
    expect(await getComparisonRun({ database: database.database, actor: person('admin-1', 'admin'), id })).toMatchObject({ id, settings });
  });

  it('refuses visitors, answers a malformed id with a field error naming run, and another kind of job as not found', async () => {
    const { id } = await start(owner.id);
    await expect(getComparisonRun({ database: database.database, actor: null, id })).rejects.toMatchObject({ code: 'unauthenticated' });
    for (const bad of ['123', "'; drop table jobs; --", 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', null, 42]) {
      await expect(getComparisonRun({ database: database.database, actor: owner, id: bad })).rejects.toMatchObject({
        code: 'validation',
        fieldErrors: { run: 'run must be a comparison run id (a UUID such as 0b6c2f0e-…).' },
      });
    }
    const importJob = await enqueueJob({ database: database.database, kind: 'data-import', payload: {}, createdBy: owner.id });
    await expect(getComparisonRun({ database: database.database, actor: owner, id: importJob.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it("finds the viewer's own most recent run, never someone else's", async () => {
    expect(await findLatestComparisonRun({ database: database.database, actor: owner })).toBeNull();
    const older = await start(owner.id);
    const newer = await start(owner.id, { ...settings, seed: 5 });
    const othersNewest = await start('patient-2');
    await enqueueJob({ database: database.database, kind: 'data-import', payload: {}, createdBy: owner.id });
    const at = (id: string, instant: string) =>
      database.database
        .update(jobs)
        .set({ createdAt: new Date(instant) })
        .where(eq(jobs.id, id));
    await at(older.id, '2026-11-24T06:00:00Z');
    await at(newer.id, '2026-11-24T07:00:00Z');
    await at(othersNewest.id, '2026-11-24T08:00:00Z');
    expect(await findLatestComparisonRun({ database: database.database, actor: owner })).toMatchObject({
      id: newer.id,
      settings: { ...settings, seed: 5 },
    });
    expect((await findLatestComparisonRun({ database: database.database, actor: person('patient-2', 'patient') }))?.id).toBe(
      othersNewest.id,
    );
    expect(await findLatestComparisonRun({ database: database.database, actor: person('admin-1', 'admin') })).toBeNull();
    await expect(findLatestComparisonRun({ database: database.database, actor: null })).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});
