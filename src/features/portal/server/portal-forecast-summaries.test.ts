import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { authUsers, companyMemberships, dispensings, drugCompanies, patients, products, userProfiles } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil, dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence';
import { forecastProductDemand } from './forecast-product-demand';
import { loadStoredForecastCells } from './portal-forecast-summaries';
import { refreshPortalPatientSummaries } from './portal-patient-summaries';

const now = new Date('2026-01-20T12:00:00Z');
const admin = { id: 'admin-1', role: 'admin' as const };
const manufacturer = { id: 'maker-1', role: 'drug-manufacturer' as const };
const viewers = [admin, manufacturer];
// Every product set a view can ask for: all, each product, a whole company, a company's products and another's (per request).
const productCases: string[][] = [
  [],
  ['statin-a'],
  ['sartan-a'],
  ['metformin-b'],
  ['generic-x'],
  ['statin-a', 'sartan-a'],
  ['statin-a', 'metformin-b'],
];

/**
 * A deterministic pseudo-random cohort: 90 patients on one to three of four products (two companies, one without),
 * fills every 20–75 days with early, late and same-day refills and gaps that end episodes, some with a quantity or
 * doses a day, a few without a product; histories ending anywhere up to the data's last day.
 */
async function seedCohort(db: Database, random: () => number) {
  await db.insert(drugCompanies).values([
    { id: 'company-a', name: 'Company A' },
    { id: 'company-b', name: 'Company B' },
  ]);
  await db.insert(products).values([
    { id: 'statin-a', companyId: 'company-a', name: 'Atorva A', genericName: 'atorvastatin' },
    { id: 'sartan-a', companyId: 'company-a', name: 'Losar A', genericName: 'losartan' },
    { id: 'metformin-b', companyId: 'company-b', name: 'Metfo B', genericName: 'metformin' },
    { id: 'generic-x', companyId: null, name: 'Generic X', genericName: 'bisoprolol' },
  ]);
  const productIds = ['statin-a', 'sartan-a', 'metformin-b', 'generic-x', null];
  for (let index = 0; index < 90; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({ pseudonym: `P-${index}`, source: 'test', sourceRecordId: `P-${index}`, synthetic: index % 9 !== 0 })
      .returning({ id: patients.id });
    const own = productIds.filter((id) => random() < (id === null ? 0.05 : 0.45));
    if (own.length === 0) own.push(productIds[index % 4]!);
    for (const productId of own) {
      let day = dayNumberFromCivil(2022, 6, 1) + Math.floor(random() * 1100);
      const fills = 1 + Math.floor(random() * 25);
      const values = [];
      for (let fill = 0; fill < fills && day < dayNumberFromCivil(2026, 1, 10); fill += 1) {
        const daysSupply = [30, 30, 28, 60, 90][Math.floor(random() * 5)]!;
        values.push({
          patientId: row!.id,
          productId,
          dispensedOn: isoFromDayNumber(day),
          daysSupply,
          quantity: random() < 0.3 ? daysSupply * 2 : null,
          dosesPerDay: random() < 0.3 ? 2 : null,
          source: 'test',
          sourceRecordId: `fill-${index}-${productId}-${fill}`,
        });
        day += random() < 0.1 ? 0 : 20 + Math.floor(random() * 56);
      }
      await db.insert(dispensings).values(values);
    }
  }
}

describe.each(testDatabaseBackends())('demand forecast pre-aggregate on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  let state = 20261125;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };

  /** Every viewer × product set: the forecast as the page reads it, and computed per request from every fill. */
  async function compareAll(at = now) {
    let compared = 0;
    for (const actor of viewers)
      for (const productIds of productCases) {
        const options = { database: db, actor, productIds, now: at };
        const read = await forecastProductDemand(options);
        const direct = await forecastProductDemand({ ...options, perRequest: true });
        expect(read, `${actor.role} ${productIds.join(',')}`).toEqual(direct);
        if (!direct.suppressed) compared += 1;
      }
    return compared;
  }
  /** Whether the pre-aggregate answers for every dispensing at the data's current as-of day. */
  const storedAnswers = async () => {
    const [latest] = (
      (await db.execute(sql`select max(dispensed_on)::text as day from dispensings`)) as unknown as { rows: { day: string }[] }
    ).rows;
    const asOf = dayNumberFromIso(latest!.day) + 1;
    return (await loadStoredForecastCells({ database: db, setKey: '*', productIds: null, asOf, now })) !== null;
  };
  const refresh = (afterDirtyRead?: (transaction: Database) => Promise<void>) =>
    refreshPortalPatientSummaries({ database: db, now, afterDirtyRead });
  const dirtyCount = async () =>
    Number(
      ((await db.execute(sql`select count(*)::int as n from portal_dirty_patients`)) as unknown as { rows: { n: number }[] }).rows[0]!.n,
    );
  const somePatient = async (pseudonym: string) =>
    (await db.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, pseudonym)))[0]!.id;

  beforeAll(async () => {
    database = await backend.create();
    db = database.database;
    await seedCohort(db, random);
    await db.insert(authUsers).values(viewers.map((user) => ({ id: user.id, name: user.id, email: `${user.id}@example.org` })));
    await db.insert(userProfiles).values(viewers.map((user) => ({ uid: user.id, role: user.role, updatedUnix: 1 })));
    await db.insert(companyMemberships).values({ userId: manufacturer.id, companyId: 'company-a' });
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it('answers per request until the refresh builds each set, then from the pre-aggregate with the same figures', async () => {
    expect(await compareAll()).toBeGreaterThan(5);
    expect(await storedAnswers()).toBe(false);
    const refreshed = await refresh();
    // Every set ('*', two companies, four products) at its own latest fill.
    expect(refreshed.forecast.built).toBe(7);
    expect(await dirtyCount()).toBe(0);
    expect(await storedAnswers()).toBe(true);
    expect(await compareAll()).toBeGreaterThan(5);
  }, 300_000);

  it('stays equal after dispensings are inserted, updated and deleted, before and after the refresh', async () => {
    const first = await somePatient('P-3');
    const second = await somePatient('P-10');
    await db.insert(dispensings).values([
      { patientId: first, productId: 'statin-a', dispensedOn: '2025-06-03', daysSupply: 90, source: 'test', sourceRecordId: 'late-1' },
      { patientId: second, productId: 'metformin-b', dispensedOn: '2025-11-20', daysSupply: 30, source: 'test', sourceRecordId: 'late-2' },
    ]);
    await db.execute(sql`update dispensings set days_supply = 7 where source_record_id in (
      select source_record_id from dispensings where source_record_id like 'fill-2%' order by 1 limit 5)`);
    await db.execute(sql`update dispensings set dispensed_on = dispensed_on - 45 where source_record_id like 'fill-4%-1'
      and dispensed_on < '2025-12-01'`);
    await db.execute(sql`delete from dispensings where source_record_id like 'fill-5%-2' and dispensed_on < '2025-12-01'`);
    await db
      .update(patients)
      .set({ synthetic: false })
      .where(eq(patients.id, await somePatient('P-11')));
    expect(await dirtyCount()).toBeGreaterThan(2);
    // The listed patients are taken out of the stored cells and computed from their fills.
    expect(await storedAnswers()).toBe(true);
    await compareAll();
    await refresh();
    expect(await dirtyCount()).toBe(0);
    expect(await storedAnswers()).toBe(true);
    await compareAll();
  }, 300_000);

  it('builds the new as-of day when the data reach a later day, and drops the one it supersedes', async () => {
    await db.insert(dispensings).values({
      patientId: await somePatient('P-20'),
      productId: 'sartan-a',
      dispensedOn: '2026-01-15',
      daysSupply: 30,
      source: 'test',
      sourceRecordId: 'newest',
    });
    expect(await storedAnswers()).toBe(false);
    await compareAll();
    const refreshed = await refresh();
    // '*', company A and sartan-a moved: built; the others kept.
    expect(refreshed.forecast.built).toBe(3);
    expect(refreshed.forecast.bases).toBe(7);
    expect(await storedAnswers()).toBe(true);
    await compareAll();
  }, 300_000);

  it('keeps a patient listed when their fills change after the refresh read the list (a write committed meanwhile)', async () => {
    const patientId = await somePatient('P-30');
    await db.execute(sql`update dispensings set days_supply = 14 where patient_id = ${patientId}`);
    await refresh(async (transaction) => {
      await transaction.insert(dispensings).values({
        patientId,
        productId: 'statin-a',
        dispensedOn: '2025-10-02',
        daysSupply: 30,
        source: 'test',
        sourceRecordId: 'meanwhile',
      });
    });
    expect(await dirtyCount()).toBe(1);
    await compareAll();
  }, 300_000);

  it('shows the newest built as-of day, labelled, while the refresh builds a new day of a large set (decision 060)', async () => {
    await refresh();
    const view = (productIds: string[], perRequest = false) =>
      forecastProductDemand({ database: db, actor: admin, productIds, now, perRequest, builtBaseMinPatients: 1 });
    const before = new Map<string, Awaited<ReturnType<typeof view>>>();
    for (const productIds of productCases) {
      const shown = await view(productIds);
      expect(shown.pending).toBeNull();
      expect(shown).toEqual(await view(productIds, true));
      before.set(productIds.join(','), shown);
    }
    await db.insert(dispensings).values({
      patientId: await somePatient('P-21'),
      productId: 'statin-a',
      dispensedOn: '2026-01-18',
      daysSupply: 30,
      source: 'test',
      sourceRecordId: 'new-day',
    });
    // Every dispensing, company A and statin-a moved to 2026-01-18; metformin-b and generic-x did not.
    for (const productIds of [[], ['statin-a'], ['statin-a', 'sartan-a']]) {
      const label = productIds.join(',');
      const earlier = before.get(label)!;
      const shown = await view(productIds);
      const newDataFrom = isoFromDayNumber(dayNumberFromIso(earlier.asOf) + 1);
      expect(shown.pending, label).toEqual({ newDataFrom, dataUpTo: '2026-01-18', refresh: 'queued' });
      // The figures and their label are the built day's: as they were (per request) before the new fill.
      expect({ ...shown, pending: null, periodWording: earlier.periodWording }, label).toEqual(earlier);
      expect(shown.periodWording).toContain(earlier.periodWording);
      expect(shown.periodWording).toContain('newer fills (from');
      // The current day's figures (per request) are of another as-of day, so a label naming it would be false.
      const current = await view(productIds, true);
      expect(current.asOf).toBe('2026-01-18');
      expect(current.months).not.toEqual(shown.months);
    }
    expect((await view(['metformin-b'])).pending).toBeNull();
    // The default threshold: a set this small is computed per request, current.
    const small = await forecastProductDemand({ database: db, actor: admin, productIds: [], now });
    expect(small).toEqual(await view([], true));
    await refresh();
    for (const productIds of productCases) {
      const shown = await view(productIds);
      expect(shown.pending).toBeNull();
      expect(shown).toEqual(await view(productIds, true));
    }
  }, 300_000);

  it('would differ if a changed patient were not listed (the comparison can fail)', async () => {
    await refresh();
    await db.execute(sql`update dispensings set days_supply = 90 where source_record_id like 'fill-6%'`);
    await db.execute(sql`delete from portal_dirty_patients`);
    const read = await forecastProductDemand({ database: db, actor: admin, productIds: [], now });
    const direct = await forecastProductDemand({ database: db, actor: admin, productIds: [], now, perRequest: true });
    expect(read).not.toEqual(direct);
  }, 300_000);
});
