import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispensings, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { getHeadlineFigures } from './get-headline-figures';

const now = new Date('2026-12-01T12:00:00Z');

describe.each(testDatabaseBackends())('getHeadlineFigures on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  /** `count` patients with `fillsEach` 30-day fills, `every` days apart from `first` (a UTC date). */
  async function addPatients(options: {
    first: number;
    count: number;
    fillsEach: number;
    start?: [number, number, number];
    every?: number;
    synthetic?: boolean;
  }) {
    const [year, month, day] = options.start ?? [2026, 0, 1];
    for (let index = options.first; index < options.first + options.count; index += 1) {
      const [patient] = await database.database
        .insert(patients)
        .values({ pseudonym: `P-${index}`, source: 'simulation', sourceRecordId: String(index), synthetic: options.synthetic ?? true })
        .returning({ id: patients.id });
      if (patient === undefined) throw new Error('no patient');
      await database.database.insert(dispensings).values(
        Array.from({ length: options.fillsEach }, (_, fill) => ({
          patientId: patient.id,
          productId: null,
          medicationCode: 'amlodipine',
          dispensedOn: new Date(Date.UTC(year, month, day + fill * (options.every ?? 30))).toISOString().slice(0, 10),
          daysSupply: 30,
          source: 'simulation',
          sourceRecordId: `${index}-${fill}`,
        })),
      );
    }
  }

  it('shows nothing below 11 patients, and the mean of the patients’ PDC over the journey’s period above', async () => {
    await addPatients({ first: 0, count: 10, fillsEach: 6 });
    expect(await getHeadlineFigures({ database: database.database, now })).toBeNull();
    await addPatients({ first: 10, count: 1, fillsEach: 6 });
    const figures = await getHeadlineFigures({ database: database.database, now });
    // 30-day fills on days 0, 30, …, 150 of 2026: the data ends with the last fill on 31 May, so the period
    // (the compliance journey's) ends that day, not when the supply runs out. Treatment began inside it, so
    // each PDC runs from the first fill (PQA): 151/151.
    expect(figures).toMatchObject({
      patientsMonitored: 11,
      patientsInCohort: 11,
      period: { start: '2025-06-01', end: '2026-05-31', asOf: '2026-05-31', days: 365, notice: null },
      scope: 'all',
      synthetic: true,
    });
    expect(figures?.meanPdc).toBeCloseTo(1, 10);
    expect(figures?.shareAdherent).toBe(1);
    expect(figures?.companyNames).toEqual([]);
  });

  it('carries supply dispensed in the year before the period into it, and counts only patients with a fill in the period', async () => {
    // 11 patients filled every 60 days from 1 January 2025: half of each year covered.
    await addPatients({ first: 0, count: 11, fillsEach: 12, start: [2025, 0, 1], every: 60 });
    // 11 patients whose only fill is long before the period: not monitored.
    await addPatients({ first: 11, count: 11, fillsEach: 1, start: [2024, 0, 1], synthetic: false });
    const figures = await getHeadlineFigures({ database: database.database, now });
    // The last fill (1 January 2025 + 660 days = 23 October 2026) ends the data: the period is the 12 months to that day.
    // The 11 patients without a fill in it are in the cohort, not among those monitored.
    expect(figures).toMatchObject({
      patientsMonitored: 11,
      patientsInCohort: 22,
      period: { start: '2025-10-24', end: '2026-10-23' },
      synthetic: true,
    });
    // Fills every 60 days for 30: 6 or 7 fills fall in the period, one more carries in from before it.
    expect(figures?.meanPdc).toBeGreaterThan(0.45);
    expect(figures?.meanPdc).toBeLessThan(0.55);
    // About half the days covered: nobody reaches PDC 0.8.
    expect(figures?.shareAdherent).toBe(0);
  });

  it('ends the period on the last day of data, not today, and not on a day in the future', async () => {
    await addPatients({ first: 0, count: 11, fillsEach: 1, start: [2026, 10, 20] });
    // A fill dated years ahead (a bad import) does not move the period.
    await addPatients({ first: 11, count: 1, fillsEach: 1, start: [2031, 0, 1] });
    const figures = await getHeadlineFigures({ database: database.database, now });
    // The one patient without a fill in the period is a small group: a visitor is not given the total that would reveal it.
    expect(figures).toMatchObject({ patientsMonitored: 11, patientsInCohort: null, period: { end: '2026-11-20', asOf: '2026-11-20' } });
    // From the fill on 20 November to the end of the data (1 day), covered.
    expect(figures?.meanPdc).toBeCloseTo(1, 10);
  });

  it('uses the period chosen: the last 3 months up to the same day', async () => {
    await addPatients({ first: 0, count: 11, fillsEach: 6 });
    const figures = await getHeadlineFigures({ database: database.database, now, choice: { kind: 'last-months', months: 3 } });
    expect(figures?.period).toMatchObject({ start: '2026-03-01', end: '2026-05-31', choice: { kind: 'last-months', months: 3 } });
    // Fills on 1 and 31 March, 30 April and 30 May fall in it.
    expect(figures?.patientsMonitored).toBe(11);
  });

  it('shows nothing without records', async () => {
    expect(await getHeadlineFigures({ database: database.database, now })).toBeNull();
  });
});
