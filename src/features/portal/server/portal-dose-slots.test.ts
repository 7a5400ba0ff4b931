import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { findCohortScope } from '@/db/queries/cohort-scope';
import { dispensings, doseEvents, drugCompanies, jobs, patients, portalAggregateState, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil, isoFromDayNumber } from '@/engine/adherence';
import type { ReportingPeriod } from '@/engine/aggregation/reporting-period';
import { buildPortalFigures, type DoseSlot, NOT_RECORDED, noPortalFilters, type PortalFilters } from '../portal-tables';
import { portalRefreshJobKind } from '../schemas';
import { findScopeProducts, loadPortalInput } from './load-portal-input';
import { findReadableDoseSlotEnd, loadDoseSlots, refreshPortalAggregates } from './portal-dose-slots';
import { createPortalRefreshHandler } from './portal-refresh-job';

// The cohort's doses run through 2025; the period starts and ends mid-month (partial months come from the daily
// table, whole ones from the monthly), and the refreshes cut it at different days.
const period: ReportingPeriod = {
  start: dayNumberFromCivil(2025, 1, 10),
  end: dayNumberFromCivil(2025, 12, 20),
  asOf: dayNumberFromCivil(2025, 12, 19),
  latestData: dayNumberFromCivil(2025, 12, 31),
  choice: { kind: 'calendar-year', year: 2025 },
  notice: null,
};

/** A deterministic pseudo-random cohort: 48 patients in three regions (one unrecorded) and two time zones, on one
 * or both of two products, a dose a day at a random minute with a random status through 2025, monthly fills. */
async function seedCohort(db: Database) {
  let state = 20251125;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  await db.insert(drugCompanies).values([{ id: 'company-a', name: 'Company A' }]);
  await db.insert(products).values([
    { id: 'statin-a', companyId: 'company-a', name: 'Atorva A', genericName: 'atorvastatin', atcCode: 'C10AA05' },
    { id: 'sartan-a', companyId: 'company-a', name: 'Losar A', genericName: 'losartan', atcCode: 'C09CA01' },
  ]);
  const statuses = ['taken', 'taken', 'taken', 'missed', 'skipped', 'unknown'] as const;
  const start = dayNumberFromCivil(2025, 1, 1);
  for (let index = 0; index < 48; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: `P-${index}`,
        source: 'test',
        sourceRecordId: `P-${index}`,
        region: index % 3 === 0 ? null : index % 3 === 1 ? 'north' : 'south',
        ageBand: '55-64',
        sex: index % 2 === 0 ? 'female' : 'male',
        timezone: index % 4 === 0 ? 'America/New_York' : 'Europe/London',
        conditions: ['hypertension'],
        synthetic: true,
      })
      .returning({ id: patients.id });
    const productIds = index % 5 === 0 ? ['statin-a', 'sartan-a'] : [index % 2 === 0 ? 'statin-a' : 'sartan-a'];
    for (const productId of productIds) {
      await db.insert(dispensings).values(
        Array.from({ length: 12 }, (_, month) => ({
          patientId: row!.id,
          productId,
          dispensedOn: isoFromDayNumber(start + month * 30 + Math.floor(random() * 10)),
          daysSupply: 30,
          source: 'test',
          sourceRecordId: `fill-${index}-${productId}-${month}`,
        })),
      );
      await db.insert(doseEvents).values(
        Array.from({ length: 365 }, (_, day) => ({
          patientId: row!.id,
          productId,
          scheduledAt: new Date((start + day) * 86_400_000 + Math.floor(random() * 1440) * 60_000),
          status: statuses[Math.floor(random() * statuses.length)]!,
          source: 'test',
          sourceRecordId: `dose-${index}-${productId}-${day}`,
        })),
      );
    }
  }
}

describe.each(testDatabaseBackends())('portal dose-slot pre-aggregate on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  let filterCases: PortalFilters[];

  const figures = async (filters: PortalFilters, doseSource: 'aggregate' | 'direct') => {
    const scopeProducts = await findScopeProducts(
      db,
      await findCohortScope({ database: db, actor: { id: 'government-1', role: 'government-official' } }),
    );
    const input = await loadPortalInput({ database: db, audience: 'government', period, scopeProducts, filters, doseSource });
    return { doses: [...input.doses].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour), figures: buildPortalFigures(input) };
  };
  const expectSameAsDirect = async () => {
    for (const filters of filterCases) {
      const direct = await figures(filters, 'direct');
      expect(direct.doses.length).toBeGreaterThan(0);
      expect(await figures(filters, 'aggregate')).toEqual(direct);
    }
  };

  beforeAll(async () => {
    database = await backend.create();
    db = database.database;
    await seedCohort(db);
    filterCases = [
      noPortalFilters,
      { ...noPortalFilters, productId: 'statin-a' },
      { ...noPortalFilters, region: 'north' },
      { ...noPortalFilters, region: NOT_RECORDED },
    ];
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it('answers from dose_events alone before the first refresh, and the same figures after refreshes cutting the period anywhere', async () => {
    expect((await findReadableDoseSlotEnd(db)).readableEnd).toBeNull();
    await expectSameAsDirect();
    // Cut mid-period: the aggregate answers before 2025-07-15, dose_events after.
    const mid = await refreshPortalAggregates({ database: db, now: new Date('2025-07-15T09:00:00Z') });
    expect(mid.throughDay).toBe('2025-07-15');
    expect(mid.rows).toBeGreaterThan(0);
    expect((await findReadableDoseSlotEnd(db)).readableEnd).toBe(dayNumberFromCivil(2025, 7, 15));
    await expectSameAsDirect();
    // After the period: the aggregate answers for all of it.
    await refreshPortalAggregates({ database: db, now: new Date('2026-11-25T09:00:00Z') });
    await expectSameAsDirect();
  });

  it('stays identical when aggregated days change (new, changed and removed doses, a moved patient) and queues one refresh', async () => {
    await refreshPortalAggregates({ database: db, now: new Date('2026-11-25T09:00:00Z') });
    const [dose] = await db
      .select({ id: doseEvents.id, patientId: doseEvents.patientId, productId: doseEvents.productId })
      .from(doseEvents)
      .where(sql`${doseEvents.scheduledAt} >= '2025-06-01' and ${doseEvents.scheduledAt} < '2025-06-02'`)
      .limit(1);
    await db.insert(doseEvents).values({
      patientId: dose!.patientId,
      productId: dose!.productId,
      scheduledAt: new Date('2025-03-03T07:30:00Z'),
      status: 'missed',
      source: 'test',
      sourceRecordId: 'late-import-1',
    });
    const state = await findReadableDoseSlotEnd(db);
    expect(state).toMatchObject({ readableEnd: dayNumberFromCivil(2025, 3, 3), stale: true });
    await expectSameAsDirect();
    const queued = await db.select({ key: jobs.dedupeKey }).from(jobs).where(eq(jobs.kind, portalRefreshJobKind));
    expect(queued).toEqual([{ key: `${portalRefreshJobKind}:v${state.version}` }]);

    await db.update(doseEvents).set({ status: 'taken' }).where(eq(doseEvents.id, dose!.id));
    await db.delete(doseEvents).where(eq(doseEvents.sourceRecordId, 'late-import-1'));
    await expectSameAsDirect();
    // The queued job rebuilds: every day before today readable again, figures unchanged.
    const handler = createPortalRefreshHandler(
      () => db,
      () => new Date('2026-11-25T09:00:00Z'),
    );
    await handler({ id: 'job', kind: portalRefreshJobKind, payload: {}, dedupeKey: `${portalRefreshJobKind}:v1` } as never, {} as never);
    expect(await findReadableDoseSlotEnd(db)).toMatchObject({ readableEnd: dayNumberFromCivil(2026, 11, 25), stale: false });
    await expectSameAsDirect();

    // A patient moving region: the aggregate's region is stale, so nothing is read from it until the refresh.
    await db.update(patients).set({ region: 'moved-region' }).where(eq(patients.id, dose!.patientId));
    expect((await findReadableDoseSlotEnd(db)).readableEnd).toBe(dayNumberFromCivil(1970, 1, 1));
    await expectSameAsDirect();
    // A change to today's doses (the live loop) leaves the aggregate readable.
    await refreshPortalAggregates({ database: db, now: new Date('2026-11-25T09:00:00Z') });
    await db
      .update(doseEvents)
      .set({ scheduledAt: new Date('2026-11-25T10:00:00Z') })
      .where(eq(doseEvents.id, dose!.id));
    expect((await findReadableDoseSlotEnd(db)).readableEnd).toBe(dayNumberFromCivil(2025, 6, 1));
    const [row] = await db.select({ throughDay: portalAggregateState.throughDay }).from(portalAggregateState);
    expect(row!.throughDay).toBe('2026-11-25');
  });

  it('keeps a change written while a refresh runs (committed after it aggregated): its day is read from dose_events', async () => {
    // The aggregate covers days before 2025-06-10; the refresh will cover days before 2026-11-25.
    await refreshPortalAggregates({ database: db, now: new Date('2025-06-10T09:00:00Z') });
    const [dose] = await db
      .select({ patientId: doseEvents.patientId, productId: doseEvents.productId })
      .from(doseEvents)
      .where(sql`${doseEvents.scheduledAt} >= '2025-06-01' and ${doseEvents.scheduledAt} < '2025-06-02'`)
      .limit(1);
    await refreshPortalAggregates({
      database: db,
      now: new Date('2026-11-25T09:00:00Z'),
      // A dose on a day the running refresh is about to cover, written after it read dose_events (decision 039's race).
      afterAggregated: async (transaction) => {
        await transaction.insert(doseEvents).values({
          patientId: dose!.patientId,
          productId: dose!.productId,
          scheduledAt: new Date('2025-08-20T14:10:00Z'),
          status: 'missed',
          source: 'test',
          sourceRecordId: 'during-refresh-1',
        });
      },
    });
    expect(await findReadableDoseSlotEnd(db)).toMatchObject({ readableEnd: dayNumberFromCivil(2025, 8, 20), stale: true });
    await expectSameAsDirect();
    await refreshPortalAggregates({ database: db, now: new Date('2026-11-25T09:00:00Z') });
    expect(await findReadableDoseSlotEnd(db)).toMatchObject({ readableEnd: dayNumberFromCivil(2026, 11, 25), stale: false });
    await expectSameAsDirect();
  });

  it('chains the next night only for the nightly run', async () => {
    const handler = createPortalRefreshHandler(
      () => db,
      () => new Date('2026-11-25T02:30:00Z'),
    );
    const result = await handler(
      { id: 'job', kind: portalRefreshJobKind, payload: {}, dedupeKey: `${portalRefreshJobKind}:2026-11-25` } as never,
      {} as never,
    );
    const [next] = await db
      .select({ runAt: jobs.runAt })
      .from(jobs)
      .where(eq(jobs.dedupeKey, `${portalRefreshJobKind}:2026-11-26`));
    expect(next!.runAt.toISOString()).toBe('2026-11-26T02:30:00.000Z');
    expect(result).toMatchObject({ throughDay: '2026-11-25', nextRefreshJobId: expect.any(String) });
  });
});

// Decision 057 left one gap: before the first build the triggers list nothing, so a dose written during that build
// (committed after it read dose_events) was neither aggregated nor listed. Decision 060 closes it.
describe.each(testDatabaseBackends())('portal dose-slot first build on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const firstPeriod = { start: dayNumberFromCivil(2025, 3, 1), end: dayNumberFromCivil(2025, 5, 1) };
  const expectExact = async () => {
    const options = { database: db, productIds: ['statin-a'], region: null, period: firstPeriod };
    const sorted = (slots: DoseSlot[]) => [...slots].sort((a, b) => a.weekday - b.weekday || a.hour - b.hour);
    const direct = sorted(await loadDoseSlots({ ...options, source: 'direct' }));
    expect(direct.length).toBeGreaterThan(0);
    expect(sorted(await loadDoseSlots(options))).toEqual(direct);
  };
  const aDose = (patientId: string, scheduledAt: string, sourceRecordId: string) => ({
    patientId,
    productId: 'statin-a',
    scheduledAt: new Date(scheduledAt),
    status: 'missed' as const,
    source: 'test',
    sourceRecordId,
  });
  let patientId = '';

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(drugCompanies).values([{ id: 'company-a', name: 'Company A' }]);
    await db
      .insert(products)
      .values([{ id: 'statin-a', companyId: 'company-a', name: 'Atorva A', genericName: 'atorvastatin', atcCode: 'C10AA05' }]);
    const rows = await db
      .insert(patients)
      .values(
        Array.from({ length: 6 }, (_, index) => ({
          pseudonym: `F-${index}`,
          source: 'test',
          sourceRecordId: `F-${index}`,
          region: 'north',
          timezone: index % 2 === 0 ? 'Europe/London' : 'Asia/Kolkata',
          conditions: [],
          synthetic: true,
        })),
      )
      .returning({ id: patients.id });
    patientId = rows[0]!.id;
    await db.insert(doseEvents).values(
      rows.flatMap((row, index) =>
        Array.from({ length: 60 }, (_, day) => ({
          patientId: row.id,
          productId: 'statin-a',
          scheduledAt: new Date((firstPeriod.start + day) * 86_400_000 + ((index * 97 + day * 31) % 1440) * 60_000),
          status: (['taken', 'missed', 'taken', 'skipped'] as const)[(index + day) % 4]!,
          source: 'test',
          sourceRecordId: `f-${index}-${day}`,
        })),
      ),
    );
    // Before any build the triggers list nothing (seeding stays fast).
    const listed = (await db.execute(sql`select count(*)::int as n from portal_dose_slot_changes`)) as unknown as { rows: { n: number }[] };
    expect(Number(listed.rows[0]!.n)).toBe(0);
  }, 120_000);
  afterEach(async () => {
    await database.close();
  });

  it('lists a dose written during the first build after it read dose_events: its day is read directly', async () => {
    await refreshPortalAggregates({
      database: db,
      now: new Date('2025-06-01T09:00:00Z'),
      afterAggregated: async (transaction) => {
        await transaction.insert(doseEvents).values(aDose(patientId, '2025-03-20T06:15:00Z', 'during-first-build'));
      },
    });
    expect(await findReadableDoseSlotEnd(db)).toMatchObject({ readableEnd: dayNumberFromCivil(2025, 3, 20), stale: true });
    await expectExact();
    await refreshPortalAggregates({ database: db, now: new Date('2025-06-01T09:00:00Z') });
    expect(await findReadableDoseSlotEnd(db)).toMatchObject({ readableEnd: dayNumberFromCivil(2025, 6, 1), stale: false });
    await expectExact();
  });

  it.runIf(backend.name === 'postgres')(
    'waits for a transaction that wrote a dose before the first build began, so the build reads it',
    async () => {
      const pool = database.driver as import('pg').Pool;
      const writer = await pool.connect();
      try {
        // A dose written (triggers not listing yet) by a transaction still open when the first build starts.
        await writer.query('begin');
        await writer.query(
          `insert into dose_events (patient_id, product_id, scheduled_at, status, source, source_record_id)
           values ($1, 'statin-a', '2025-04-02T11:40:00Z', 'missed', 'test', 'open-before-first-build')`,
          [patientId],
        );
        const build = refreshPortalAggregates({ database: db, now: new Date('2025-06-01T09:00:00Z') });
        // The build waits for it: an advisory lock requested and not granted (up to 5 s; without the lock it never waits).
        for (let attempt = 0; attempt < 50; attempt += 1) {
          const waiting = (await pool.query(`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`))
            .rows[0] as {
            n: number;
          };
          if (waiting.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await writer.query('commit');
        await build;
      } finally {
        writer.release();
      }
      await expectExact();
    },
    60_000,
  );
});
