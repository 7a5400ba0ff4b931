import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { type CohortScope, findCohortScope } from '@/db/queries/cohort-scope';
import { findReportingPeriod } from '@/db/queries/reporting-period';
import {
  authUsers,
  companyMemberships,
  dispensings,
  patients,
  portalSummaryGroups as portalSummaryGroupsTable,
  userProfiles,
} from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence';
import type { PeriodChoice } from '@/engine/aggregation/reporting-period';
import { importFhir, undoImportBatch } from '@/features/data-import';
import { describePortalPageFromTotals, NOT_RECORDED, noPortalFilters, type PortalFilters, type PortalTotals } from '../portal-tables';
import { findScopeProducts, loadPortalPageInput } from './load-portal-input';
import { pickerChoices } from './portal-periods-ahead';
import { refreshPortalPatientSummaries } from './portal-patient-summaries';
import { createPortalRefreshHandler } from './portal-refresh-job';
import { portalRefreshJobKind } from '../schemas';
import { seededRandom, seedTwoCompanyCatalogue } from './test-support/portal-test-catalogue';

const now = new Date('2026-01-20T12:00:00Z');
const government = { id: 'government-1', role: 'government-official' as const };
const admin = { id: 'admin-1', role: 'admin' as const };
const manufacturer = { id: 'maker-1', role: 'drug-manufacturer' as const };
const viewers = [government, admin, manufacturer];
// The default period (last 12 months, starting mid-month) and a custom one cut mid-month at both ends.
const choices: PeriodChoice[] = [
  { kind: 'last-months', months: 12 },
  { kind: 'custom', from: dayNumberFromCivil(2025, 3, 17), to: dayNumberFromCivil(2025, 10, 9) },
];

/**
 * A deterministic pseudo-random cohort: 70 patients in four regions (one unrecorded), both sexes and three age
 * bands (some unrecorded), on one to three of four products of two companies and one without a company; fills
 * every 20–75 days (early refills, late ones, gaps over 60 days that end episodes), some the same day.
 */
async function seedCohort(db: Database, random: () => number) {
  await seedTwoCompanyCatalogue(db, { unbranded: true });
  const productIds = ['statin-a', 'sartan-a', 'metformin-b', 'generic-x'];
  for (let index = 0; index < 70; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: `P-${index}`,
        source: 'test',
        sourceRecordId: `P-${index}`,
        region: [null, 'north', 'south', 'east'][index % 4]!,
        ageBand: [null, '35-44', '55-64', '75+'][index % 4 === 0 ? 1 : Math.floor(random() * 4)]!,
        sex: index % 7 === 0 ? null : index % 2 === 0 ? 'female' : 'male',
        conditions: index % 6 === 0 ? [] : index % 3 === 0 ? ['hypertension', 'type-2-diabetes'] : ['hypertension'],
        synthetic: true,
      })
      .returning({ id: patients.id });
    const own = productIds.filter(() => random() < 0.45);
    if (own.length === 0) own.push(productIds[index % productIds.length]!);
    for (const productId of own) {
      let day = dayNumberFromCivil(2023, 11, 1) + Math.floor(random() * 700);
      const fills = 1 + Math.floor(random() * 14);
      const values = [];
      for (let fill = 0; fill < fills && day < dayNumberFromCivil(2026, 1, 10); fill += 1) {
        values.push({
          patientId: row!.id,
          productId,
          dispensedOn: isoFromDayNumber(day),
          daysSupply: [30, 30, 28, 60, 90][Math.floor(random() * 5)]!,
          source: 'test',
          sourceRecordId: `fill-${index}-${productId}-${fill}`,
        });
        day += random() < 0.1 ? 0 : 20 + Math.floor(random() * 56);
      }
      await db.insert(dispensings).values(values);
    }
  }
}

/** Totals with the persistence subjects in one order (the pre-aggregate returns them grouped). */
const comparable = (totals: PortalTotals) => ({
  ...totals,
  subjects: [...totals.subjects].sort((a, b) => a.time - b.time || Number(a.event) - Number(b.event)),
  groups: Object.fromEntries(Object.entries(totals.groups).map(([id, map]) => [id, Object.fromEntries([...map].sort())])),
});

describe.each(testDatabaseBackends())('portal per-patient pre-aggregate on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const random = seededRandom(20261125);

  /** Every viewer × period × filter: the figures read through the pre-aggregate, and computed per request. */
  async function compareAll(expectedSource: 'pre-aggregate' | 'per-request' | 'some pre-aggregate' | 'any') {
    let compared = 0;
    const sources = new Set<string>();
    for (const actor of viewers) {
      const scope: CohortScope = await findCohortScope({ database: db, actor });
      const scopeProducts = await findScopeProducts(db, scope);
      const audience = actor.role === 'drug-manufacturer' ? 'manufacturer' : 'government';
      const filterCases: PortalFilters[] = [
        noPortalFilters,
        ...scopeProducts.map((product) => ({ ...noPortalFilters, productId: product.id })),
        ...['company-a', 'company-b'].map((companyId) => ({ ...noPortalFilters, companyId })),
        ...['north', 'south', NOT_RECORDED].map((region) => ({ ...noPortalFilters, region })),
        { ...noPortalFilters, productId: 'statin-a', region: 'east' },
        { ...noPortalFilters, companyId: 'company-a', region: NOT_RECORDED },
      ];
      for (const choice of choices) {
        const period = await findReportingPeriod({ database: db, scope, choice, now });
        for (const filters of filterCases) {
          const options = { database: db, audience, period, scopeProducts, filters, now } as const;
          const direct = await loadPortalPageInput({ ...options, source: 'direct' });
          const read = await loadPortalPageInput(options);
          if (read.products.length > 0) sources.add(read.source);
          expect(comparable(read.totals), `${actor.role} ${JSON.stringify(choice)} ${JSON.stringify(filters)}`).toEqual(
            comparable(direct.totals),
          );
          expect(describePortalPageFromTotals(read).figures).toEqual(describePortalPageFromTotals(direct).figures);
          compared += 1;
        }
      }
    }
    if (expectedSource === 'some pre-aggregate') expect([...sources]).toContain('pre-aggregate');
    else if (expectedSource !== 'any') expect([...sources]).toEqual([expectedSource]);
    return compared;
  }
  const refresh = () => refreshPortalPatientSummaries({ database: db, now });
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

  it('answers per request until a period is built, then from the pre-aggregate with the same figures for every viewer and filter', async () => {
    await compareAll('per-request');
    const built = await refresh();
    expect(built.built).toBeGreaterThanOrEqual(2);
    expect(await dirtyCount()).toBe(0);
    expect(await compareAll('pre-aggregate')).toBeGreaterThan(50);
  }, 300_000);

  it('stays equal after dispensings are inserted, updated and deleted, before and after the refresh', async () => {
    const first = await somePatient('P-3');
    const second = await somePatient('P-10');
    await db.insert(dispensings).values([
      { patientId: first, productId: 'statin-a', dispensedOn: '2025-06-03', daysSupply: 90, source: 'test', sourceRecordId: 'late-1' },
      { patientId: second, productId: 'metformin-b', dispensedOn: '2025-09-20', daysSupply: 30, source: 'test', sourceRecordId: 'late-2' },
    ]);
    await db.execute(sql`update dispensings set days_supply = 7 where source_record_id in (
      select source_record_id from dispensings where source_record_id like 'fill-2%' order by 1 limit 5)`);
    await db.execute(sql`update dispensings set dispensed_on = dispensed_on - 45 where source_record_id like 'fill-4%-1'`);
    await db.execute(sql`delete from dispensings where source_record_id like 'fill-5%-2'`);
    expect(await dirtyCount()).toBeGreaterThan(2);
    // A moved fill may move a scope's last day of data and so its default period (computed per request until built).
    await compareAll('some pre-aggregate');
    await refresh();
    expect(await dirtyCount()).toBe(0);
    await compareAll('pre-aggregate');
  }, 300_000);

  it("stays equal after a patient's region, sex and age band change, before and after the refresh", async () => {
    await db
      .update(patients)
      .set({ region: 'south', sex: 'female', ageBand: '75+' })
      .where(eq(patients.id, await somePatient('P-12')));
    await db
      .update(patients)
      .set({ region: null, ageBand: null })
      .where(eq(patients.id, await somePatient('P-13')));
    expect(await dirtyCount()).toBe(2);
    await compareAll('pre-aggregate');
    await refresh();
    expect(await dirtyCount()).toBe(0);
    await compareAll('pre-aggregate');
  }, 300_000);

  it('stays equal after an import is added and its batch removed again', async () => {
    const resources = [
      { resourceType: 'Patient', id: 'imp-1', gender: 'female', birthDate: '1950-02-01' },
      ...['2025-04-01', '2025-05-01', '2025-08-15'].map((day, index) => ({
        resourceType: 'MedicationDispense',
        id: `imp-d${index}`,
        status: 'completed',
        subject: { reference: 'Patient/imp-1' },
        whenHandedOver: day,
        daysSupply: { value: 30, unit: 'days' },
        medicationCodeableConcept: {
          coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '990001', display: 'Testamab' }],
        },
      })),
    ];
    await importFhir({ database: db, actor: admin, text: `${resources.map((resource) => JSON.stringify(resource)).join('\n')}\n` });
    expect(await dirtyCount()).toBe(1);
    await compareAll('any');
    const batches = (await db.execute(sql`select id from import_batches order by started_at desc limit 1`)) as unknown as {
      rows: { id: string }[];
    };
    const batch = batches.rows[0];
    await refresh();
    await undoImportBatch({ database: db, actor: admin, batchId: batch!.id });
    expect(await dirtyCount()).toBe(1);
    await compareAll('pre-aggregate');
    await refresh();
    await compareAll('pre-aggregate');
  }, 300_000);

  it('keeps a patient listed when their fills change after the refresh read the list (a write committed meanwhile)', async () => {
    const patientId = await somePatient('P-20');
    await db.insert(dispensings).values({
      patientId,
      productId: 'sartan-a',
      dispensedOn: '2025-07-07',
      daysSupply: 30,
      source: 'test',
      sourceRecordId: 'race-1',
    });
    await refreshPortalPatientSummaries({
      database: db,
      now,
      // Runs after the refresh read the dirty list and before it clears it: the new generation must survive.
      afterDirtyRead: async (transaction) => {
        await transaction.insert(dispensings).values({
          patientId,
          productId: 'sartan-a',
          dispensedOn: '2025-10-07',
          daysSupply: 60,
          source: 'test',
          sourceRecordId: 'race-2',
        });
      },
    });
    expect(await dirtyCount()).toBe(1);
    await compareAll('pre-aggregate');
  }, 300_000);

  it('the refresh job builds ahead every period the page offers, also after the data reach a new day', async () => {
    const runJob = () =>
      createPortalRefreshHandler(
        () => db,
        () => now,
      )({ id: 'job', kind: portalRefreshJobKind, payload: {}, dedupeKey: null } as never, {} as never);
    /** Each picker choice of the official and the manufacturer: read from built rows, with the per-request figures. */
    const everyChoiceBuilt = async () => {
      for (const actor of [government, manufacturer]) {
        const scope = await findCohortScope({ database: db, actor });
        const scopeProducts = await findScopeProducts(db, scope);
        const audience = actor.role === 'drug-manufacturer' ? 'manufacturer' : 'government';
        const { asOf } = await findReportingPeriod({ database: db, scope, now });
        for (const choice of pickerChoices(asOf)) {
          const period = await findReportingPeriod({ database: db, scope, choice, now });
          const options = { database: db, audience, period, scopeProducts, filters: noPortalFilters, now } as const;
          const read = await loadPortalPageInput(options);
          expect(read.source, `${actor.role} ${JSON.stringify(choice)}`).toBe('pre-aggregate');
          expect(comparable(read.totals)).toEqual(comparable((await loadPortalPageInput({ ...options, source: 'direct' })).totals));
        }
      }
    };
    await runJob();
    await everyChoiceBuilt();
    // New data on a later day: the as-of day and so every period moves; the job (queued by an import, nightly, or a
    // view) builds the new ones before anyone asks.
    await db.insert(dispensings).values({
      patientId: await somePatient('P-40'),
      productId: 'statin-a',
      dispensedOn: '2026-01-18',
      daysSupply: 30,
      source: 'test',
      sourceRecordId: 'new-day-1',
    });
    await runJob();
    await everyChoiceBuilt();
  }, 300_000);

  it('a manufacturer of two companies reads the group of both from built rows once a refresh has built it (decision 064)', async () => {
    await refresh();
    const maker = { id: 'maker-2', role: 'drug-manufacturer' as const };
    await db.insert(authUsers).values({ id: maker.id, name: maker.id, email: 'maker-2@example.org' });
    await db.insert(userProfiles).values({ uid: maker.id, role: maker.role, updatedUnix: 1 });
    const groupView = async () => {
      const scope = await findCohortScope({ database: db, actor: maker });
      const scopeProducts = await findScopeProducts(db, scope);
      expect(scopeProducts.map((product) => product.id).sort()).toEqual(['metformin-b', 'sartan-a', 'statin-a']);
      const period = await findReportingPeriod({ database: db, scope, choice: choices[0], now });
      const sources: string[] = [];
      for (const filters of [noPortalFilters, { ...noPortalFilters, region: 'north' }]) {
        const options = { database: db, audience: 'manufacturer', period, scopeProducts, filters, now } as const;
        const direct = await loadPortalPageInput({ ...options, source: 'direct' });
        const read = await loadPortalPageInput(options);
        expect(comparable(read.totals), JSON.stringify(filters)).toEqual(comparable(direct.totals));
        expect(describePortalPageFromTotals(read).figures).toEqual(describePortalPageFromTotals(direct).figures);
        sources.push(read.source);
      }
      return sources;
    };
    const groups = async () =>
      (
        (await db.execute(sql`select level_key as key from portal_summary_groups order by 1`)) as unknown as { rows: { key: string }[] }
      ).rows.map((row) => row.key);
    // A selection of both companies by a user whose memberships the last refresh did not see: per request, and the
    // view registers the group and queues a refresh.
    await db.insert(companyMemberships).values([
      { userId: maker.id, companyId: 'company-a' },
      { userId: maker.id, companyId: 'company-b' },
    ]);
    expect(await groupView()).toEqual(['per-request', 'per-request']);
    expect(await groups()).toEqual(['g:company-a+company-b']);
    const queued = (await db.execute(
      sql`select count(*)::int as n from jobs where dedupe_key = ${`${portalRefreshJobKind}:group:g:company-a+company-b`}`,
    )) as unknown as { rows: { n: number }[] };
    expect(queued.rows[0]!.n).toBe(1);
    await refresh();
    expect(await groupView()).toEqual(['pre-aggregate', 'pre-aggregate']);
    // A change to a patient on both companies' products: exact before and after the refresh.
    await db.insert(dispensings).values({
      patientId: await somePatient('P-12'),
      productId: 'metformin-b',
      dispensedOn: '2025-08-08',
      daysSupply: 90,
      source: 'test',
      sourceRecordId: 'group-1',
    });
    await groupView();
    await refresh();
    expect(await groupView()).toEqual(['pre-aggregate', 'pre-aggregate']);
    // A membership group is registered by the refresh itself, before any view.
    await db.delete(portalSummaryGroupsTable);
    await refresh();
    expect(await groups()).toEqual(['g:company-a+company-b']);
    expect(await groupView()).toEqual(['pre-aggregate', 'pre-aggregate']);
    await db.delete(companyMemberships).where(eq(companyMemberships.userId, maker.id));
  }, 300_000);

  it('differs from the engine when a refresh clears the dirty list without rewriting the rows (the check can fail)', async () => {
    await refresh();
    await db.insert(dispensings).values({
      patientId: await somePatient('P-30'),
      productId: 'statin-a',
      dispensedOn: '2025-05-05',
      daysSupply: 120,
      source: 'test',
      sourceRecordId: 'broken-1',
    });
    await db.execute(sql`delete from portal_dirty_patients`);
    await expect(compareAll('pre-aggregate')).rejects.toThrow();
  }, 300_000);
});
