import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authUsers, jobs, riskModels } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import type { SessionUser } from '@/lib/server/session';
import { riskTrainJobKind } from '../schemas';
import { getRiskEvaluation } from './get-risk-evaluation';
import { startRiskTraining } from './start-risk-training';
import { trainRiskModel } from './train-risk-model';

const user = (id: string, role: SessionUser['role']): SessionUser => ({
  id,
  email: `${id}@x.test`,
  name: id,
  role,
  phoneNumber: null,
  twoFactorEnabled: false,
});
const official = user('official-1', 'government-official');
const patient = user('patient-1', 'patient');

describe.each(testDatabaseBackends())('risk model training and evaluation on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await database.database.insert(authUsers).values([official, patient].map(({ id, email, name }) => ({ id, email, name })));
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('the first visit queues the default run once; training needs the permission and names a bad field', async () => {
    const db = database.database;
    const first = await startRiskTraining({ database: db, actor: patient, input: {}, automatic: true });
    const second = await startRiskTraining({ database: db, actor: official, input: {}, automatic: true });
    expect(second.jobId).toBe(first.jobId);
    await expect(startRiskTraining({ database: db, actor: patient, input: {} })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(startRiskTraining({ database: db, actor: official, input: { patients: 5 } })).rejects.toThrow(/patients/);
    await startRiskTraining({ database: db, actor: official, input: { patients: 200, weeks: 12, seed: 2 } });
    const queued = await db.select({ kind: jobs.kind, payload: jobs.payload }).from(jobs);
    expect(queued.map((job) => job.kind)).toEqual([riskTrainJobKind, riskTrainJobKind]);
    expect(queued.map((job) => job.payload)).toContainEqual({ source: 'simulation', patients: 200, weeks: 12, seed: 2 });
  });

  it('the page reads the latest ready version, and a running one beside it', async () => {
    const db = database.database;
    expect(await getRiskEvaluation({ database: db, actor: official })).toEqual({ latest: null, ready: null });
    const steps: number[] = [];
    const trained = await trainRiskModel({
      database: db,
      input: { source: 'simulation', patients: 120, weeks: 12, seed: 3 },
      createdBy: official.id,
      withTargeting: false,
      onProgress: (_stage, done) => {
        steps.push(done);
      },
    });
    expect(steps.at(-1)).toBe(13);
    await db.insert(riskModels).values({ version: 2, source: 'simulation', seed: 4, patients: 100, weeks: 12 });
    const { latest, ready } = await getRiskEvaluation({ database: db, actor: official });
    expect(latest).toMatchObject({ version: 2, status: 'running', evaluation: null });
    expect(ready).toMatchObject({ id: trained.id, version: 1, status: 'ready', patients: 120, targeting: null });
    expect(ready!.evaluation!.models.map((model) => model.name)).toEqual(['network', 'logistic', 'last-30-day']);
    expect(ready!.evaluation!.models[0]!.auc).toBeCloseTo(trained.evaluation.models[0]!.auc, 12);
  }, 60_000);
});
