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
    // 30-day fills on days 0, 30, …, 150 of 2026: supply lasts to 29 June, so the period (the compliance
    // journey's) ends that day. Treatment began inside it, so each PDC runs from the first fill (PQA): 180/180.
    expect(figures).toMatchObject({
      patientsMonitored: 11,
      periodStart: '2025-06-30',
      periodEnd: '2026-06-29',
      periodDays: 365,
      synthetic: true,
    });
    expect(figures?.meanPdc).toBeCloseTo(1, 10);
  });

  it('carries supply dispensed in the year before the period into it, and counts only patients with a fill in the period', async () => {
    // 11 patients filled every 60 days from 1 January 2025: half of each year covered.
    await addPatients({ first: 0, count: 11, fillsEach: 12, start: [2025, 0, 1], every: 60 });
    // 11 patients whose only fill is long before the period: not monitored.
    await addPatients({ first: 11, count: 11, fillsEach: 1, start: [2024, 0, 1], synthetic: false });
    const figures = await getHeadlineFigures({ database: database.database, now });
    // The last fill (1 January 2025 + 660 days = 23 October 2026) lasts to 21 November 2026: the period is the 365 days before.
    expect(figures).toMatchObject({ patientsMonitored: 11, periodEnd: '2026-11-21', synthetic: true });
    // Fills every 60 days for 30: 6 or 7 fills fall in the period, one more carries in from before it.
    expect(figures?.meanPdc).toBeGreaterThan(0.45);
    expect(figures?.meanPdc).toBeLessThan(0.55);
  });

  it('ends the period today when supply lasts beyond it', async () => {
    await addPatients({ first: 0, count: 11, fillsEach: 1, start: [2026, 10, 20] });
    const figures = await getHeadlineFigures({ database: database.database, now });
    expect(figures).toMatchObject({ patientsMonitored: 11, periodEnd: '2026-12-01' });
    // From the fill on 20 November to today (12 days), all covered.
    expect(figures?.meanPdc).toBeCloseTo(1, 10);
  });

  it('shows nothing without records', async () => {
    expect(await getHeadlineFigures({ database: database.database, now })).toBeNull();
  });
});
