import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, doseEvents, jobs, patients, riskModels, riskScores } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { riskTrainJobKind } from '../schemas';
import { getRiskEvaluation } from './get-risk-evaluation';
import { scoreRiskPatients } from './score-risk-patients';
import { startRiskTraining } from './start-risk-training';
import { trainRiskModel } from './train-risk-model';
import { testSessionUser } from '@/lib/server/session-testing';

const user = testSessionUser;
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
    const request = { requestId: 'req-risk-train-0001', clientAddress: '198.51.100.8' };
    await expect(startRiskTraining({ database: db, actor: patient, input: {}, request })).rejects.toMatchObject({ code: 'forbidden' });
    // The refusal is audited with the request that made it.
    expect(
      await db
        .select({
          action: auditLog.action,
          outcome: auditLog.outcome,
          requestId: auditLog.requestId,
          clientAddress: auditLog.clientAddress,
        })
        .from(auditLog),
    ).toEqual([{ action: 'risk-model.train', outcome: 'denied', ...request }]);
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

  it('gives two runs started together their own versions (the second failed on the unique version before)', async () => {
    const db = database.database;
    // No dose events in the database: each run stores its version, then fails loading the records and marks it failed.
    const runs = await Promise.allSettled(
      [1, 2].map(() => trainRiskModel({ database: db, input: { source: 'database', patients: 120, weeks: 12, seed: 3 }, createdBy: null })),
    );
    expect(runs.map((run) => run.status === 'rejected' && (run.reason as Error).message)).toEqual([
      'The database holds no dose events to train the risk model on.',
      'The database holds no dose events to train the risk model on.',
    ]);
    const rows = await db.select({ version: riskModels.version, status: riskModels.status }).from(riskModels).orderBy(riskModels.version);
    expect(rows).toEqual([
      { version: 1, status: 'failed' },
      { version: 2, status: 'failed' },
    ]);
  });

  it('scores active patients with the latest ready version, once per patient and version', async () => {
    const db = database.database;
    expect(await scoreRiskPatients({ database: db })).toEqual({ scored: 0, modelVersion: null, scoredOn: null });
    await trainRiskModel({
      database: db,
      input: { source: 'simulation', patients: 120, weeks: 12, seed: 3 },
      createdBy: null,
      withTargeting: false,
    });
    const [active, inactive, steady] = await db
      .insert(patients)
      .values([
        { pseudonym: 'P-1', source: 'test', sourceRecordId: 'P-1', persona: 'medication-sceptic', ageBand: '35-44' },
        { pseudonym: 'P-2', source: 'test', sourceRecordId: 'P-2' },
        { pseudonym: 'P-3', source: 'test', sourceRecordId: 'P-3', persona: 'medication-sceptic', ageBand: '35-44' },
      ])
      .returning({ id: patients.id });
    const day = Date.UTC(2026, 10, 20) / 86_400_000;
    // The same 20 days of doses; `active` missed the last 10, `steady` took every one.
    await db.insert(doseEvents).values(
      [active!, steady!].flatMap((patient, which) =>
        Array.from({ length: 20 }, (_, index) => ({
          patientId: patient.id,
          scheduledAt: new Date((day - index) * 86_400_000 + 8 * 3_600_000),
          status: index < 10 && which === 0 ? ('missed' as const) : ('taken' as const),
          source: 'app',
          sourceRecordId: `d${which}-${index}`,
        })),
      ),
    );
    await db.insert(doseEvents).values({
      patientId: inactive!.id,
      scheduledAt: new Date((day - 60) * 86_400_000),
      status: 'taken',
      source: 'app',
      sourceRecordId: 'old',
    });
    expect(await scoreRiskPatients({ database: db })).toEqual({ scored: 2, modelVersion: 1, scoredOn: '2026-11-21' });
    expect(await scoreRiskPatients({ database: db })).toMatchObject({ scored: 2 });
    const rows = await db.select({ patientId: riskScores.patientId, risk: riskScores.risk, reasons: riskScores.reasons }).from(riskScores);
    expect(rows).toHaveLength(2);
    const of = (id: string) => rows.find((row) => row.patientId === id)!;
    expect(of(active!.id).risk).toBeGreaterThan(of(steady!.id).risk);
    expect(of(active!.id).reasons.map((reason) => reason.feature)).toContain('confirmed-7');
    for (const reason of of(active!.id).reasons) expect(reason.words).toMatch(/\w/);
  }, 60_000);
});
