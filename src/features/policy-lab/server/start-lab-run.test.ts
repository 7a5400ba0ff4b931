import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobs } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { defaultPersonalisedSettings } from '@/engine/policy/personalised';
import { claimNextJob, enqueueJob, getJob, runClaimedJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import { defaultLabRunInput, labFormValuesOf, labRunJobKind, type LabSummary } from '../schemas';
import { getLabRun } from './get-lab-run';
import { getLabRunProgress } from './get-lab-run-progress';
import './register-lab-job';
import { simulateLab } from './simulate-lab';
import { failedRunRetryMilliseconds, startLabRun } from './start-lab-run';
import { startWhatIfRun } from './start-what-if-run';

const user = (id: string, role: SessionUser['role']): SessionUser => ({
  id,
  email: `${id}@example.org`,
  name: id,
  role,
  phoneNumber: null,
  twoFactorEnabled: false,
});
const clinician = user('clinician-1', 'clinician');
const official = user('official-1', 'government-official');

describe.each(testDatabaseBackends())('lab runs on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  const input = { patients: 60, seed: 11, settings: defaultPersonalisedSettings };

  it('refuses visitors and settings out of bounds, naming the field', async () => {
    await expect(startLabRun({ database: database.database, actor: null, input })).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(
      startLabRun({ database: database.database, actor: clinician, input: { ...input, patients: 100_000 } }),
    ).rejects.toMatchObject({
      code: 'validation',
      fieldErrors: { patients: expect.any(String) },
    });
    await expect(getLabRun({ database: database.database, actor: clinician, id: 'nope' })).rejects.toMatchObject({ code: 'validation' });
  });

  it('shares one run between everyone asking for the same settings', async () => {
    const first = await startLabRun({ database: database.database, actor: clinician, input });
    const again = await startLabRun({ database: database.database, actor: official, input: { ...input, settings: { ...input.settings } } });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ status: 'queued', input, summary: null });
    const other = await startLabRun({ database: database.database, actor: official, input: { ...input, seed: 12 } });
    expect(other.id).not.toBe(first.id);
    // Anyone signed in may follow it (it is synthetic); another kind of job is no lab run.
    expect(await getLabRunProgress({ database: database.database, actor: official, id: first.id })).toMatchObject({ id: first.id });
    const { id: otherKind } = await enqueueJob({ database: database.database, kind: 'policy-comparison', payload: {} });
    await expect(getLabRun({ database: database.database, actor: official, id: otherKind })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('shows a recent failure, and starts again once it is old', async () => {
    const first = await startLabRun({ database: database.database, actor: clinician, input });
    const failedAt = new Date('2026-01-01T10:00:00Z');
    await database.database.update(jobs).set({ status: 'failed', error: 'boom', finishedAt: failedAt }).where(eq(jobs.id, first.id));
    const soon = await startLabRun({ database: database.database, actor: clinician, input, now: new Date(failedAt.getTime() + 1000) });
    expect(soon).toMatchObject({ id: first.id, status: 'failed', error: 'boom' });
    const later = new Date(failedAt.getTime() + failedRunRetryMilliseconds + 1000);
    const retried = await startLabRun({ database: database.database, actor: clinician, input, now: later });
    expect(retried.id).not.toBe(first.id);
    expect(retried.status).toBe('queued');
  });

  it('starts a what-if on the default cohort, naming the form fields at fault', async () => {
    await expect(
      startWhatIfRun({
        database: database.database,
        actor: clinician,
        input: { ...labFormValuesOf(defaultPersonalisedSettings), burdenWeight: '-1' },
      }),
    ).rejects.toMatchObject({
      code: 'validation',
      fieldErrors: { burdenWeight: 'Burden weight must be a number from 0 to 0.5, such as 0.02.' },
    });
    const standard = await startLabRun({ database: database.database, actor: official, input: defaultLabRunInput });
    const same = await startWhatIfRun({
      database: database.database,
      actor: clinician,
      input: labFormValuesOf(defaultPersonalisedSettings),
    });
    expect(same.id).toBe(standard.id);
    expect(same).not.toHaveProperty('summary');
    const other = await startWhatIfRun({
      database: database.database,
      actor: clinician,
      input: { ...labFormValuesOf(defaultPersonalisedSettings), messagesPerWeekCap: '2' },
    });
    expect(other.id).not.toBe(standard.id);
    expect(other.input).toMatchObject({
      patients: defaultLabRunInput.patients,
      seed: defaultLabRunInput.seed,
      settings: { messagesPerWeekCap: 2 },
    });
  });

  it('runs a lab run in a worker thread with progress and stores the summary', { timeout: 180_000 }, async () => {
    const run = await startLabRun({ database: database.database, actor: clinician, input });
    const claimed = await claimNextJob({ database: database.database, kinds: [labRunJobKind] });
    expect(claimed?.id).toBe(run.id);
    await runClaimedJob({ database: database.database, job: claimed! });
    const total = 3 * 60 * 364;
    expect(await getJob({ database: database.database, id: run.id })).toMatchObject({
      status: 'succeeded',
      progressDone: total,
      progressTotal: total,
    });
    const stored = await getLabRun({ database: database.database, actor: official, id: run.id });
    const expected: LabSummary = simulateLab({ input });
    expect(stored.summary).toEqual(expected);
  });
});
