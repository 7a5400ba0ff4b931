/**
 * Issue 11 item 1 across features: for the same viewer and choice, the home page, data sources, the
 * compliance journey and the patient profile report the same period and agree on the count of patients.
 * (In src/app: the one place that may compose several features.)
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { authUsers, dispensings, organisationMemberships, organisations, patients, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import type { PeriodChoice } from '@/engine/aggregation/reporting-period';
import { getDataSourceOverview } from '@/features/data-sources/server/get-data-source-overview';
import { getHeadlineFigures } from '@/features/home/server/get-headline-figures';
import { getComplianceJourney, JOURNEY_MONTHS } from '@/features/patient-adherence/server/get-compliance-journey';
import { getPatientProfile } from '@/features/patient-adherence/server/get-patient-profile';
import type { SessionUser } from '@/lib/server/session';
import { testSessionUser } from '@/lib/server/session-testing';

// Today is long after the data, which ends on 31 December 2025 (as the demo data does).
const now = new Date('2026-11-24T09:00:00Z');
const user = testSessionUser;
const admin = user('admin-1', 'admin');
const clinician = user('clinician-1', 'clinician');

async function addPatient(database: Database, pseudonym: string, organisationId: string, fillDays: number[]): Promise<void> {
  const [row] = await database
    .insert(patients)
    .values({ pseudonym, source: 'simulation', sourceRecordId: pseudonym, organisationId, synthetic: true })
    .returning({ id: patients.id });
  if (fillDays.length === 0) return;
  await database.insert(dispensings).values(
    fillDays.map((day, index) => ({
      patientId: row!.id,
      productId: 'statin',
      dispensedOn: isoFromDayNumber(day),
      daysSupply: 30,
      source: 'simulation',
      sourceRecordId: `${pseudonym}-${index}`,
    })),
  );
}

describe.each(testDatabaseBackends())('one period on every page on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values([admin, clinician].map((actor) => ({ id: actor.id, name: actor.name, email: actor.email })));
    await db.insert(organisations).values([
      { id: 'org-a', name: 'Riverside Practice' },
      { id: 'org-b', name: 'Hilltop Clinic' },
    ]);
    await db.insert(organisationMemberships).values({ userId: clinician.id, organisationId: 'org-a' });
    await db.insert(products).values({ id: 'statin', name: 'Atorva 20', genericName: 'atorvastatin' });
    const start = dayNumberFromIso('2025-01-01');
    // 14 patients filling every 30 days through 2025 (the last fill on 31 December); 12 in org A, 2 in org B.
    for (let index = 0; index < 14; index += 1) {
      const fills = Array.from({ length: 13 }, (_, fill) => start + index + fill * 30).filter(
        (day) => day <= dayNumberFromIso('2025-12-31'),
      );
      await addPatient(db, `P-${String(index).padStart(4, '0')}`, index < 12 ? 'org-a' : 'org-b', fills);
    }
    // One who stopped in 2023 and one never dispensed: in the cohort, not among those with a dispensing in the period.
    await addPatient(db, 'Q-0001', 'org-a', [dayNumberFromIso('2023-05-01')]);
    await addPatient(db, 'Q-0002', 'org-a', []);
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function pages(actor: SessionUser, choice?: PeriodChoice) {
    const [home, sources, journey, profile] = await Promise.all([
      getHeadlineFigures({ database: db, actor, choice, now }),
      getDataSourceOverview({ database: db, actor, choice, now }),
      getComplianceJourney({ database: db, actor, choice, now }),
      getPatientProfile({ database: db, actor, choice, now }),
    ]);
    if (home === null || journey.status !== 'ok' || profile.status !== 'ok') throw new Error('expected every page to show figures');
    return { home, sources, journey, profile };
  }

  it.each([
    ['an admin', admin, 16, 14],
    ['a clinician', clinician, 14, 12],
  ] as const)(
    'gives %s the same period and patient count on the home page, data sources, journey and profile',
    async (_, actor, inCohort, dispensed) => {
      for (const choice of [undefined, { kind: 'last-months', months: 3 } as const, { kind: 'calendar-year', year: 2025 } as const]) {
        const { home, sources, journey, profile } = await pages(actor, choice);
        const periods = [home.period, sources.cohort.period, journey.period, profile.period];
        for (const period of periods) expect(period).toEqual(home.period);
        // The data ends on 31 December 2025 (the latest fill), long before today: the period ends there.
        expect(home.period).toMatchObject({ end: '2025-12-31', asOf: '2025-12-31' });
        // Patients with a dispensing in the period, of the patients in the viewer's cohort — the same on every page.
        expect([home.patientsMonitored, sources.cohort.counts.withDispensingInPeriod, journey.cohort.patients.count]).toEqual([
          dispensed,
          dispensed,
          dispensed,
        ]);
        expect([home.patientsInCohort, sources.cohort.counts.patients, journey.patientsInScope]).toEqual([inCohort, inCohort, inCohort]);
      }
      const { home } = await pages(actor);
      expect(home.period).toMatchObject({ start: '2025-01-01', days: 365 });
    },
  );

  it('leaves no journey month empty and no gap running to the end of the window for data that ended before today', async () => {
    const { journey, profile } = await pages(admin, { kind: 'calendar-year', year: 2025 });
    const last = journey.pdcByMonth[JOURNEY_MONTHS - 1]!;
    // Patients who began in the first days of 2025 are followed for all 12 months before the data ends.
    expect(last.patients.count).toBeGreaterThan(0);
    expect(last.quartiles?.median).toBeGreaterThan(0.9);
    // The example patient refilled every 30 days to the end of the data: no gap, and the last episode is ongoing.
    expect(profile.refillGaps).toEqual([]);
    expect(profile.episodes.at(-1)).toMatchObject({ ongoing: true, end: '2025-12-31' });
  });
});
