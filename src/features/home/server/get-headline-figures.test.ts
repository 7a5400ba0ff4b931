import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispensings, patients } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { getHeadlineFigures } from './get-headline-figures';

describe.each(testDatabaseBackends())('getHeadlineFigures on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
  });
  afterEach(async () => {
    await database.dispose();
  });

  async function addPatients(first: number, count: number, fillsEach: number) {
    for (let index = first; index < first + count; index += 1) {
      const [patient] = await database.database
        .insert(patients)
        .values({ pseudonym: `P-${index}`, source: 'simulation', sourceRecordId: String(index), synthetic: true })
        .returning({ id: patients.id });
      if (patient === undefined) throw new Error('no patient');
      // 30-day fills from 2026-01-01 onwards: `fillsEach` of them cover fillsEach × 30 days.
      await database.database.insert(dispensings).values(
        Array.from({ length: fillsEach }, (_, fill) => ({
          patientId: patient.id,
          productId: null,
          medicationCode: 'amlodipine',
          dispensedOn: new Date(Date.UTC(2026, 0, 1 + fill * 30)).toISOString().slice(0, 10),
          daysSupply: 30,
          source: 'simulation',
          sourceRecordId: `${index}-${fill}`,
        })),
      );
    }
  }

  it('shows nothing below 11 patients, and the mean PDC over the last 365 days above', async () => {
    await addPatients(0, 10, 6);
    expect(await getHeadlineFigures({ database: database.database })).toBeNull();
    await addPatients(10, 1, 6);
    const figures = await getHeadlineFigures({ database: database.database });
    // Every patient: 30-day fills on days 0, 30, …, 150 of 2026. The period is the 365 days up to the latest
    // dispensing (2026-05-31); of them, 1 January to 31 May (151 days) are covered, the rest precede the first fill.
    expect(figures).toMatchObject({ patientsMonitored: 11, periodEnd: '2026-05-31', synthetic: true });
    expect(figures?.meanPdc).toBeCloseTo(151 / 365, 10);
  });
});
