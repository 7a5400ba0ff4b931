import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, authUsers, organisationMemberships, organisations, patients, riskModels, riskScores } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { getPatientRisk } from './get-patient-risk';
import { listRiskWorklist } from './list-risk-worklist';
import { recordRiskContact } from './record-risk-contact';
import { testSessionUser } from '@/lib/server/session-testing';

const user = testSessionUser;
const clinician = user('clinician-1', 'clinician');
const official = user('official-1', 'government-official');

describe.each(testDatabaseBackends())('risk worklist on $name', (backend) => {
  let database: TestDatabase;
  let ids: Record<string, string>;
  beforeEach(async () => {
    database = await backend.create();
    const db = database.database;
    await db.insert(authUsers).values([clinician, official].map(({ id, email, name }) => ({ id, email, name })));
    await db.insert(organisations).values([
      { id: 'org-a', name: 'A' },
      { id: 'org-b', name: 'B' },
    ]);
    await db.insert(organisationMemberships).values({ userId: clinician.id, organisationId: 'org-a' });
    const rows = await db
      .insert(patients)
      .values([
        { pseudonym: 'P-LOW', source: 't', sourceRecordId: '1', organisationId: 'org-a' },
        { pseudonym: 'P-HIGH', source: 't', sourceRecordId: '2', organisationId: 'org-a' },
        { pseudonym: 'P-OTHER', source: 't', sourceRecordId: '3', organisationId: 'org-b' },
      ])
      .returning({ id: patients.id, pseudonym: patients.pseudonym });
    ids = Object.fromEntries(rows.map((row) => [row.pseudonym, row.id]));
    const [model] = await db
      .insert(riskModels)
      .values({ version: 1, status: 'ready', source: 'simulation', seed: 1, patients: 3, weeks: 12 })
      .returning({ id: riskModels.id });
    await db.insert(riskScores).values([
      { patientId: ids['P-LOW']!, modelId: model!.id, scoredOn: '2026-11-21', risk: 0.2, reasons: [] },
      {
        patientId: ids['P-HIGH']!,
        modelId: model!.id,
        scoredOn: '2026-11-21',
        risk: 0.9,
        reasons: [{ feature: 'confirmed-7', words: 'share of doses confirmed in the last 7 days', weight: 1.2 }],
      },
      { patientId: ids['P-OTHER']!, modelId: model!.id, scoredOn: '2026-11-21', risk: 0.95, reasons: [] },
    ]);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('lists the clinician’s organisation’s patients by risk with reasons, and records a contact with an audit event', async () => {
    const db = database.database;
    const worklist = await listRiskWorklist({ database: db, actor: clinician });
    expect(worklist.modelVersion).toBe(1);
    expect(worklist.rows.map((row) => [row.pseudonym, row.risk])).toEqual([
      ['P-HIGH', 0.9],
      ['P-LOW', 0.2],
    ]);
    expect(worklist.rows[0]!.reasons).toEqual(['share of doses confirmed in the last 7 days']);
    await recordRiskContact({ database: db, actor: clinician, input: { patientId: ids['P-HIGH'] } });
    const after = await listRiskWorklist({ database: db, actor: clinician });
    expect(after.rows[0]!.lastContactedAt).not.toBeNull();
    const audits = await db
      .select({ outcome: auditLog.outcome, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'risk-worklist.contacted'));
    expect(audits).toEqual([{ outcome: 'success', details: { patientId: ids['P-HIGH'] } }]);
  });

  it('refuses a patient outside the clinician’s organisations, a bad id, and roles without patient access', async () => {
    const db = database.database;
    await expect(recordRiskContact({ database: db, actor: clinician, input: { patientId: ids['P-OTHER'] } })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(recordRiskContact({ database: db, actor: clinician, input: { patientId: 'nope' } })).rejects.toThrow(/patientId/);
    // A seeded, UUID-shaped id without RFC 4122 bits is an id like any other (here: no such patient).
    await expect(
      recordRiskContact({ database: db, actor: clinician, input: { patientId: '10000000-0000-0000-0000-000000000045' } }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(listRiskWorklist({ database: db, actor: official })).rejects.toMatchObject({ code: 'forbidden' });
    const request = { requestId: 'req-risk-contact-0001', clientAddress: '198.51.100.7' };
    await expect(recordRiskContact({ database: db, actor: official, input: { patientId: ids['P-LOW'] }, request })).rejects.toMatchObject({
      code: 'forbidden',
    });
    // The refusal's audit row names the request, like the success row.
    const denied = await db
      .select({ outcome: auditLog.outcome, requestId: auditLog.requestId, clientAddress: auditLog.clientAddress })
      .from(auditLog)
      .where(eq(auditLog.action, 'risk-worklist.contacted'));
    expect(denied).toEqual([{ outcome: 'denied', ...request }]);
  });

  it('gives the profile’s risk line to the patient’s clinician only', async () => {
    const db = database.database;
    expect(await getPatientRisk({ database: db, actor: clinician, patientId: ids['P-HIGH']! })).toEqual({
      risk: 0.9,
      reasons: ['share of doses confirmed in the last 7 days'],
      scoredOn: '2026-11-21',
      modelVersion: 1,
    });
    expect(await getPatientRisk({ database: db, actor: clinician, patientId: ids['P-OTHER']! })).toBeNull();
    expect(await getPatientRisk({ database: db, actor: official, patientId: ids['P-HIGH']! })).toBeNull();
  });
});
