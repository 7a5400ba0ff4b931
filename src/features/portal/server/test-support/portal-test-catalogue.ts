/**
 * The portal tests' shared catalogue and random source: two companies (A with a statin and a sartan, B with
 * metformin), optionally an unbranded product without a company, and a deterministic linear congruential generator
 * so a cohort drawn from it is the same on every run and database.
 */
import type { Database } from '@/db/client';
import { drugCompanies, products } from '@/db/schema';

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
