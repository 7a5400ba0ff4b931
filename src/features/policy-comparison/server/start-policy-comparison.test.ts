import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { AppError } from '@/lib/errors';
import { claimNextJob, getJob, runClaimedJob } from '@/lib/server/jobs';
import type { SessionUser } from '@/lib/server/session';
import type { PolicyComparison } from '../schemas';
import { priceComparison } from './price-comparison';
import './register-comparison-job';
import { comparisonStartDay, simulatePolicies } from './simulate-policies';
import { comparisonJobKind, parseComparisonSettings, startPolicyComparison } from './start-policy-comparison';

const actor: SessionUser = {
  id: 'user-1',
  email: 'patient@example.org',
  name: 'Patient',
  role: 'patient',
  phoneNumber: null,
  twoFactorEnabled: false,
};

describe('parseComparisonSettings', () => {
  it('accepts form text and numbers', () => {
    expect(parseComparisonSettings({ patients: ' 500 ', seed: '0', smsPrice: '0.05', whatsappPrice: '.02' })).toEqual({
      patients: 500,
      seed: 0,
      smsPrice: 0.05,
      whatsappPrice: 0.02,
    });
    expect(parseComparisonSettings({ patients: 50_000, seed: 4_294_967_295, smsPrice: 0, whatsappPrice: 10 })).toMatchObject({
      patients: 50_000,
    });
  });

  it('names every field that is wrong', () => {
    const attempt = () => parseComparisonSettings({ patients: '99', seed: '1.5', smsPrice: '-1', whatsappPrice: 'free' });
    expect(attempt).toThrow(AppError);
    try {
      attempt();
    } catch (error) {
      expect((error as AppError).code).toBe('validation');
      expect((error as AppError).fieldErrors).toEqual({
        patients: 'Cohort size must be a whole number from 100 to 50,000 patients.',
        seed: 'Seed must be a whole number from 0 to 4,294,967,295.',
        smsPrice: 'SMS price per message must be an amount in pounds from 0 to 10, such as 0.04.',
        whatsappPrice: 'WhatsApp price per message must be an amount in pounds from 0 to 10, such as 0.04.',
      });
    }
    expect(() => parseComparisonSettings({ patients: '', seed: '1', smsPrice: '0.04', whatsappPrice: '0.02' })).toThrow(
      'Cohort size must be a whole number from 100 to 50,000 patients.',
    );
    expect(() => parseComparisonSettings({ patients: '50001', seed: '1', smsPrice: '0.04', whatsappPrice: '0.02' })).toThrow(/Cohort size/);
    expect(() => parseComparisonSettings(null)).toThrow(
      /^The comparison request is not valid: patients: .+; seed: .+; smsPrice: .+; whatsappPrice: .+$/,
    );
  });
});

describe.each(testDatabaseBackends())('startPolicyComparison on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('refuses visitors', async () => {
    await expect(startPolicyComparison({ database: database.database, actor: null, input: {} })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  });

  it('answers small runs at once and queues large ones as a job', { timeout: 60_000 }, async () => {
    const small = await startPolicyComparison({
      database: database.database,
      actor,
      input: { patients: '200', seed: '3', smsPrice: '0.04', whatsappPrice: '0.02' },
    });
    expect(small.kind).toBe('result');
    if (small.kind === 'result') expect(small.comparison.policies).toHaveLength(4);

    const large = await startPolicyComparison({
      database: database.database,
      actor,
      input: { patients: '2001', seed: '3', smsPrice: '0.04', whatsappPrice: '0.02' },
    });
    expect(large.kind).toBe('job');
    if (large.kind !== 'job') return;
    const job = await getJob({ database: database.database, id: large.jobId });
    expect(job).toMatchObject({
      kind: comparisonJobKind,
      status: 'queued',
      createdBy: 'user-1',
      payload: { patients: 2001, seed: 3, smsPrice: 0.04, whatsappPrice: 0.02 },
    });
  });

  it('runs a queued comparison in a worker thread with progress, and stores the result', { timeout: 120_000 }, async () => {
    // A seed no other test uses, so the job really simulates (nothing cached).
    const settings = { patients: 120, seed: 90_210 + (backend.name === 'postgres' ? 1 : 0), smsPrice: 0.05, whatsappPrice: 0.01 };
    const { enqueueJob } = await import('@/lib/server/jobs');
    const { id } = await enqueueJob({ database: database.database, kind: comparisonJobKind, payload: settings, createdBy: actor.id });
    const claimed = await claimNextJob({ database: database.database, kinds: [comparisonJobKind] });
    expect(claimed?.id).toBe(id);
    await runClaimedJob({ database: database.database, job: claimed! });
    const job = await getJob({ database: database.database, id });
    expect(job).toMatchObject({ status: 'succeeded', error: null, progressDone: 4 * 120 * 365, progressTotal: 4 * 120 * 365 });
    const expected: PolicyComparison = priceComparison({ simulations: simulatePolicies(settings), settings, startDay: comparisonStartDay });
    expect(job?.result).toEqual(expected);
  });

  it('fails a job whose settings are not valid, saying which', async () => {
    const { enqueueJob } = await import('@/lib/server/jobs');
    const { id } = await enqueueJob({
      database: database.database,
      kind: comparisonJobKind,
      payload: { patients: 5, seed: 1, smsPrice: 0, whatsappPrice: 0 },
      createdBy: actor.id,
    });
    const claimed = await claimNextJob({ database: database.database, kinds: [comparisonJobKind] });
    await runClaimedJob({ database: database.database, job: claimed! });
    expect(await getJob({ database: database.database, id })).toMatchObject({
      status: 'failed',
      error: 'The queued comparison is not valid: patients: Cohort size must be a whole number from 100 to 50,000 patients.',
    });
  });
});
