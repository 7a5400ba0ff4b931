import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { authUsers, dispensings, drugCompanies, patients, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { loadCohortDispensings, loadCohortFillsByPatient } from '@/db/queries/medication-events';
import { dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence';
import { getPatientOutcomes, type PatientOutcomes } from './get-patient-outcomes';
import { testSessionUser } from '@/lib/server/session-testing';

const now = new Date('2026-02-28T12:00:00Z');
const today = dayNumberFromCivil(2026, 2, 28);

const user = testSessionUser;
const admin = user('admin-1', 'admin');
const government = user('government-1', 'government-official');
const companyless = user('manufacturer-1', 'drug-manufacturer');

let sequence = 0;
async function addPatient(
  database: Database,
  values: { persona: string; ageBand: string; conditions: string[]; fillDays: number[] },
): Promise<void> {
  sequence += 1;
  const [row] = await database
    .insert(patients)
    .values({
      pseudonym: `P-${sequence}`,
      source: 'test',
      sourceRecordId: `P-${sequence}`,
      persona: values.persona,
      ageBand: values.ageBand,
      conditions: values.conditions,
      synthetic: true,
    })
    .returning({ id: patients.id });
  await database.insert(dispensings).values(
    values.fillDays.map((day, index) => ({
      patientId: row!.id,
      productId: 'statin',
      dispensedOn: isoFromDayNumber(day),
      daysSupply: 30,
      source: 'test',
      sourceRecordId: `fill-${sequence}-${index}`,
    })),
  );
}

/** Monthly 30-day fills from 420 days ago to today: covered every day of the period (PDC 1). */
const everyMonth = Array.from({ length: 15 }, (_, index) => today - 420 + index * 30);
/** One 30-day fill 200 days ago: PDC from then about 30 / 200, not adherent. */
const once = [today - 200];

function ok(result: PatientOutcomes) {
  if (result.status !== 'ok') throw new Error(`expected figures, got ${result.status}`);
  return result;
}

describe.each(testDatabaseBackends())('patient outcomes on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values({ id: 'manufacturer-1', name: 'manufacturer-1', email: 'manufacturer-1@x.test' });
    await db.insert(drugCompanies).values({ id: 'company-a', name: 'Company A' });
    await db.insert(products).values({ id: 'statin', companyId: 'company-a', name: 'Atorva 20', genericName: 'atorvastatin' });
  });

  afterEach(async () => {
    await database.dispose();
  });

  async function seedCohort() {
    // 12 adherent routine patients aged 55–64 with hypertension; 3 non-adherent forgetful patients aged 75+ with hypertension and type 2 diabetes.
    for (let index = 0; index < 12; index += 1)
      await addPatient(db, { persona: 'routine', ageBand: '55-64', conditions: ['hypertension'], fillDays: everyMonth });
    for (let index = 0; index < 3; index += 1)
      await addPatient(db, { persona: 'forgetful', ageBand: '75+', conditions: ['hypertension', 'type-2-diabetes'], fillDays: once });
  }

  it('gives admins every group with hand-computable figures', async () => {
    await seedCohort();
    const outcomes = ok(await getPatientOutcomes({ database: db, actor: admin, country: 'united-kingdom', now }));
    expect(outcomes.suppressed).toBe(false);
    expect(outcomes.cohort.patients.count).toBe(15);
    expect(outcomes.cohort.adherentShare).toBeCloseTo(12 / 15, 12);
    const routine = outcomes.groups.persona.find((group) => group.key === 'routine')!;
    expect(routine.patients.count).toBe(12);
    expect(routine.adherentShare).toBe(1);
    // UK hypertension: baseline adherence 0.5, admissions 0.0193 a year, RR 0.81 (0.76–0.86).
    // r_poor = 0.0193 / (0.5 × 0.81 + 0.5) = 0.0193 / 0.905 = 0.0213260; per 1,000 = 1,000 × (1 − 0.5) × 0.0213260 × (1 − 0.81) = 2.0260
    expect(routine.hospitalisationsAvoided!.central).toBeCloseTo(2.026, 3);
    // High scenario, RR 0.76: r_poor = 0.0193 / (0.38 + 0.5) = 0.0219318; × 0.24 × 0.5 × 1,000 = 2.6318
    expect(routine.hospitalisationsAvoided!.high).toBeCloseTo(2.6318, 3);
    const forgetful = outcomes.groups.persona.find((group) => group.key === 'forgetful')!;
    expect(forgetful.patients.count).toBe(3);
    expect(forgetful.adherentShare).toBe(0);
    // Two conditions, each (0 − 0.5) × r_poor × 0.19 × 1,000: hypertension −2.0260; type 2 diabetes (0.188 a year,
    // r_poor = 0.188 / 0.905 = 0.2077348) −19.7348; sum −21.7608.
    expect(forgetful.hospitalisationsAvoided!.central).toBeCloseTo(-21.7608, 3);
    const conditions = outcomes.groups.condition.map((group) => [group.key, group.patients.count]);
    expect(conditions).toEqual([
      ['hypertension', 15],
      ['type-2-diabetes', 3],
    ]);
    expect(outcomes.groups['age-band'].map((group) => group.label)).toEqual(['55–64', '75+']);
  });

  it('hides small groups from a government official, and what would reveal them', async () => {
    await seedCohort();
    const outcomes = ok(await getPatientOutcomes({ database: db, actor: government, country: 'united-kingdom', now }));
    expect(outcomes.suppressed).toBe(true);
    const shown = [
      outcomes.cohort.patients,
      ...Object.values(outcomes.groups).flatMap((groups) => groups.map((group) => group.patients)),
    ].flatMap((count) => (count.count === null ? [] : [count.count]));
    for (const count of shown) expect(count === 0 || count >= 11, `shown ${count}`).toBe(true);
    const forgetful = outcomes.groups.persona.find((group) => group.key === 'forgetful')!;
    expect(forgetful.patients.display).toBe('<11');
    expect(forgetful.adherentShare).toBeNull();
    expect(forgetful.hospitalisationsAvoided).toBeNull();
    // The cohort is shown, so the 12 routine patients are hidden too (15 − 12 would give the 3).
    if (!outcomes.cohort.patients.suppressed) {
      expect(outcomes.groups.persona.filter((group) => group.patients.suppressed).length).toBeGreaterThanOrEqual(2);
      expect(outcomes.groups['age-band'].filter((group) => group.patients.suppressed).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('says so when fewer than 11 patients are in the period for a suppressed viewer', async () => {
    for (let index = 0; index < 5; index += 1)
      await addPatient(db, { persona: 'routine', ageBand: '55-64', conditions: ['hypertension'], fillDays: everyMonth });
    const outcomes = await getPatientOutcomes({ database: db, actor: government, country: 'india', now });
    expect(outcomes.status).toBe('too-few');
    expect(ok(await getPatientOutcomes({ database: db, actor: admin, country: 'india', now })).cohort.patients.count).toBe(5);
  });

  it('reads the same fills one row per patient as the per-fill read', async () => {
    await seedCohort();
    const range = { from: today - 500, to: today + 1 };
    const perFill = await loadCohortDispensings({ database: db, scope: { kind: 'all' }, ...range });
    const perPatient = await loadCohortFillsByPatient({ database: db, scope: { kind: 'all' }, ...range });
    expect(perPatient.size).toBe(15);
    for (const [patientId, fills] of perFill) {
      expect(perPatient.get(patientId)).toEqual(fills.map(({ patientId: _patient, productName: _name, ...fill }) => fill));
    }
  });

  it('gives a manufacturer of no company nothing', async () => {
    await seedCohort();
    expect((await getPatientOutcomes({ database: db, actor: companyless, country: 'united-states', now })).status).toBe('no-company');
  });
});
