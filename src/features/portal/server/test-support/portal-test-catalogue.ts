/**
 * The portal tests' shared catalogue and random source: two companies (A with a statin and a sartan, B with
 * metformin), optionally an unbranded product without a company, and a deterministic linear congruential generator
 * so a cohort drawn from it is the same on every run and database.
 */
import type { Database } from '@/db/client';
import { dispensings, drugCompanies, patients, products } from '@/db/schema';
import { isoFromDayNumber } from '@/engine/adherence';

export async function seedTwoCompanyCatalogue(db: Database, options: { unbranded?: boolean } = {}): Promise<void> {
  await db.insert(drugCompanies).values([
    { id: 'company-a', name: 'Company A' },
    { id: 'company-b', name: 'Company B' },
  ]);
  await db
    .insert(products)
    .values([
      { id: 'statin-a', companyId: 'company-a', name: 'Atorva A', genericName: 'atorvastatin', atcCode: 'C10AA05' },
      { id: 'sartan-a', companyId: 'company-a', name: 'Losar A', genericName: 'losartan', atcCode: 'C09CA01' },
      { id: 'metformin-b', companyId: 'company-b', name: 'Metfo B', genericName: 'metformin', atcCode: 'A10BA02' },
      ...(options.unbranded === true
        ? [{ id: 'generic-x', companyId: null, name: 'Generic X', genericName: 'bisoprolol', atcCode: null }]
        : []),
    ]);
}

/** Uniform draws in [0, 1) from a fixed seed (the same constants as the tests used before this module). */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

let sequence = 0;

/** A synthetic patient (55–64, female, hypertension) in `region` with a 30-day fill of `productId` on each of `fillDays`. */
export async function addPortalTestPatient(
  database: Database,
  productId: string,
  region: string | null,
  fillDays: readonly number[],
): Promise<string> {
  sequence += 1;
  const [row] = await database
    .insert(patients)
    .values({
      pseudonym: `P-${sequence}`,
      source: 'test',
      sourceRecordId: `P-${sequence}`,
      region,
      ageBand: '55-64',
      sex: 'female',
      timezone: 'Europe/London',
      conditions: ['hypertension'],
      synthetic: true,
    })
    .returning({ id: patients.id });
  await database.insert(dispensings).values(
    fillDays.map((day, index) => ({
      patientId: row!.id,
      productId,
      dispensedOn: isoFromDayNumber(day),
      daysSupply: 30,
      source: 'test',
      sourceRecordId: `fill-${sequence}-${index}`,
    })),
  );
  return row!.id;
}
