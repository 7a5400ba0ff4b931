import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { findCohortScope } from '@/db/queries/cohort-scope';
import { findReportingPeriod } from '@/db/queries/reporting-period';
import { auditLog, authUsers, companyMemberships, dispensings, jobs, patients, userProfiles } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil, dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence';
import { type PeriodChoice, resolvePeriod } from '@/engine/aggregation/reporting-period';
import { describePortalPageFromTotals, noPortalFilters, type PortalFilters } from '../portal-tables';
import { portalRefreshJobKind } from '../schemas';
import { exportPortalTable } from './export-portal-table';
import { getPortalView, type PortalView } from './get-portal-view';
import { findScopeProducts, loadPortalPageInput } from './load-portal-input';
import { createPortalRefreshHandler } from './portal-refresh-job';
import { periodKeyOf, refreshPortalPatientSummaries } from './portal-patient-summaries';
import { seededRandom, seedTwoCompanyCatalogue } from './test-support/portal-test-catalogue';

const now = new Date('2026-01-20T12:00:00Z');
const government = { id: 'government-1', role: 'government-official' as const };
const manufacturer = { id: 'maker-1', role: 'drug-manufacturer' as const };
const request = { requestId: 'test', clientAddress: '127.0.0.1' };
const choices: PeriodChoice[] = [
  { kind: 'last-months', months: 12 },
  { kind: 'last-months', months: 3 },
  { kind: 'calendar-year', year: 2026 },
];
const filterCases: PortalFilters[] = [
  noPortalFilters,
  { ...noPortalFilters, productId: 'statin-a' },
  { ...noPortalFilters, region: 'north' },
];

/** 60 patients on one or two of three products (two companies), monthly-ish fills through 2026-01-10. */
async function seedCohort(db: Database) {
  const random = seededRandom(20261125);
  await seedTwoCompanyCatalogue(db);
  const productIds = ['statin-a', 'sartan-a', 'metformin-b'];
  for (let index = 0; index < 60; index += 1) {
    const [row] = await db
      .insert(patients)
      .values({
        pseudonym: `P-${index}`,
        source: 'test',
        sourceRecordId: `P-${index}`,
        region: ['north', 'south', null][index % 3]!,
        ageBand: ['35-44', '55-64', '75+'][index % 3]!,
        sex: index % 2 === 0 ? 'female' : 'male',
        conditions: ['hypertension'],
        synthetic: true,
      })
      .returning({ id: patients.id });
    const own = index % 4 === 0 ? productIds.slice(0, 2) : [productIds[index % 3]!];
    for (const productId of own) {
      let day = dayNumberFromCivil(2024, 6, 1) + Math.floor(random() * 300);
      const values = [];
      for (let fill = 0; day < dayNumberFromCivil(2026, 1, 11); fill += 1) {
        values.push({
          patientId: row!.id,
          productId,
          dispensedOn: isoFromDayNumber(day),
          daysSupply: 30,
          source: 'test',
          sourceRecordId: `fill-${index}-${productId}-${fill}`,
        });
        day += 25 + Math.floor(random() * (random() < 0.1 ? 90 : 20));
      }
      await db.insert(dispensings).values(values);
    }
  }
}

describe.each(testDatabaseBackends())('portal view of a period not built yet on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;
  const runJob = () =>
    createPortalRefreshHandler(
      () => db,
      () => now,
    )({ id: 'job', kind: portalRefreshJobKind, payload: {}, dedupeKey: null } as never, {} as never);

  /** The figures of a period as its label states it, computed per request from every fill. */
  async function figuresOfLabel(actor: typeof government | typeof manufacturer, view: Extract<PortalView, { status: 'ok' }>) {
    const scopeProducts = await findScopeProducts(db, await findCohortScope({ database: db, actor }));
    const asOf = dayNumberFromIso(view.period.asOf);
    const period = {
      start: dayNumberFromIso(view.period.start),
      end: dayNumberFromIso(view.period.end) + 1,
      asOf,
      latestData: asOf,
      choice: view.period.choice,
      notice: null,
    };
    const input = await loadPortalPageInput({
      database: db,
      audience: view.audience,
      period,
      scopeProducts,
      filters: view.filters,
      now,
      source: 'direct',
    });
    return describePortalPageFromTotals(input).figures;
  }

  beforeAll(async () => {
    database = await backend.create();
    db = database.database;
    await seedCohort(db);
    const viewers = [government, manufacturer];
    await db.insert(authUsers).values(viewers.map((user) => ({ id: user.id, name: user.id, email: `${user.id}@example.org` })));
    await db.insert(userProfiles).values(viewers.map((user) => ({ uid: user.id, role: user.role, updatedUnix: 1 })));
    await db.insert(companyMemberships).values({ userId: manufacturer.id, companyId: 'company-a' });
    await runJob();
  }, 120_000);
  afterAll(async () => {
    await database.close();
  });

  it('shows the last built period, labelled as such and equal to that period per request, until the job builds the new one', async () => {
    const view = (actor: typeof government | typeof manufacturer, choice: PeriodChoice, filters: PortalFilters, minPatients = 1) =>
      getPortalView({ database: db, actor, choice, filters, request, now, builtPeriodMinPatients: minPatients }).then((result) => {
        if (result.status !== 'ok') throw new Error('no company');
        return result;
      });
    const built = new Map<string, Extract<PortalView, { status: 'ok' }>>();
    for (const actor of [government, manufacturer])
      for (const choice of choices)
        for (const filters of filterCases) {
          const before = await view(actor, choice, filters);
          expect(before.pending).toBeNull();
          built.set(`${actor.id} ${JSON.stringify(choice)} ${JSON.stringify(filters)}`, before);
        }

    // Data on a new day: every period moves; none is built for it yet.
    const [someone] = await db.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, 'P-1'));
    await db.insert(dispensings).values({
      patientId: someone!.id,
      productId: 'statin-a',
      dispensedOn: '2026-01-18',
      daysSupply: 30,
      source: 'test',
      sourceRecordId: 'new-day-1',
    });
    for (const actor of [government, manufacturer])
      for (const choice of choices)
        for (const filters of filterCases) {
          const label = `${actor.id} ${JSON.stringify(choice)} ${JSON.stringify(filters)}`;
          const shown = await view(actor, choice, filters);
          const before = built.get(label)!;
          // The label is the period of the figures: the one built before the new day, not the one asked for.
          expect(shown.period, label).toEqual(before.period);
          const newDataFrom = isoFromDayNumber(dayNumberFromIso(before.period.asOf) + 1);
          expect(before.period.asOf < '2026-01-18', label).toBe(true);
          expect(shown.pending, label).toMatchObject({ newDataFrom, refresh: 'queued' });
          expect(shown.pending!.asked.asOf, label).toBe('2026-01-18');
          expect(shown.pending!.asked.end).toBe('2026-01-18');
          expect(shown.figures, label).toEqual(await figuresOfLabel(actor, shown));
          expect(shown.figures, label).toEqual(before.figures);
          // The period asked for is registered and its refresh queued.
          const asked = resolvePeriod({ choice, asOf: dayNumberFromCivil(2026, 1, 18), latestData: dayNumberFromCivil(2026, 1, 18) });
          const [job] = await db
            .select({ status: jobs.status })
            .from(jobs)
            .where(eq(jobs.dedupeKey, `${portalRefreshJobKind}:period:${periodKeyOf(asked)}`));
          expect(job?.status, label).toBe('queued');
        }

    // The asked period's own figures differ (it is 8 days later), so a label naming it would not match the figures.
    const official = await view(government, choices[0]!, noPortalFilters);
    // The audit row records the period shown and that newer data are pending.
    const [audited] = await db
      .select({ details: auditLog.details })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'portal.view'), eq(auditLog.actorUserId, government.id)))
      .orderBy(desc(auditLog.occurredAt))
      .limit(1);
    const newDataFrom = official.pending!.newDataFrom;
    expect(audited!.details).toMatchObject({ start: official.period.start, end: official.period.end, newDataFrom });

    const direct = await getPortalView({
      database: db,
      actor: government,
      choice: choices[0],
      filters: noPortalFilters,
      request,
      now,
      source: 'direct',
    });
    if (direct.status !== 'ok') throw new Error('no company');
    expect(direct.period.asOf).toBe('2026-01-18');
    expect(direct.pending).toBeNull();
    expect(official.figures).not.toEqual(direct.figures);
    expect(await figuresOfLabel(government, direct)).toEqual(direct.figures);

    // The CSV is the table shown, of the period shown, and says so.
    const csv = await exportPortalTable({
      database: db,
      actor: government,
      table: 'by-region',
      filters: noPortalFilters,
      request,
      now,
      builtPeriodMinPatients: 1,
    });
    const { start, end, asOf } = official.period;
    expect(csv.filename).toBe(`portal-by-region-${start}-to-${end}.csv`);
    expect(csv.csv).toContain(`Period: ${start} to ${end}, data up to ${asOf} (the latest period`);
    expect(csv.csv).toContain(`newer data from ${newDataFrom} up to 2026-01-18 are being added`);
    const table = official.figures.tables.find((candidate) => candidate.id === 'by-region')!;
    expect(csv.csv).toContain(
      table.rows
        .map((row) => row.label)
        .join('\n')
        .split('\n')[0],
    );

    // A small scope (the default threshold) is computed per request: exact and current.
    const small = await view(government, choices[0]!, noPortalFilters, 3_000);
    expect(small.pending).toBeNull();
    expect(small.period).toEqual(direct.period);
    expect(small.figures).toEqual(direct.figures);

    // After the job, the new period from built rows.
    await runJob();
    for (const actor of [government, manufacturer])
      for (const choice of choices)
        for (const filters of filterCases) {
          const label = `${actor.id} ${JSON.stringify(choice)} ${JSON.stringify(filters)}`;
          const shown = await view(actor, choice, filters);
          expect(shown.pending, label).toBeNull();
          expect(shown.period.asOf, label).toBe('2026-01-18');
          expect(shown.figures, label).toEqual(await figuresOfLabel(actor, shown));
        }
  }, 300_000);

  it.runIf(backend.name === 'postgres')(
    'a view during a running refresh does not wait for it (the refresh registers its periods in a committed transaction first)',
    async () => {
      const [someone] = await db.select({ id: patients.id }).from(patients).where(eq(patients.pseudonym, 'P-2'));
      await db.insert(dispensings).values({
        patientId: someone!.id,
        productId: 'sartan-a',
        dispensedOn: '2026-01-19',
        daysSupply: 30,
        source: 'test',
        sourceRecordId: 'new-day-2',
      });
      const scope = await findCohortScope({ database: db, actor: government });
      const asked = await findReportingPeriod({ database: db, scope, now });
      expect(isoFromDayNumber(asked.asOf)).toBe('2026-01-19');
      let shown: PortalView | 'waited' | null = null;
      await refreshPortalPatientSummaries({
        database: db,
        now,
        periods: [asked],
        // While the refresh's transaction is open: a view of the period it is about to build, on another connection.
        afterDirtyRead: async () => {
          const view = getPortalView({
            database: db,
            actor: government,
            filters: noPortalFilters,
            request,
            now,
            builtPeriodMinPatients: 1,
          });
          shown = await Promise.race([view, new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 10_000))]);
        },
      });
      expect(shown).not.toBe('waited');
      const view = shown as unknown as Extract<PortalView, { status: 'ok' }>;
      expect(view.period.asOf).toBe('2026-01-18');
      expect(view.pending).toMatchObject({ newDataFrom: '2026-01-19' });
      expect(view.pending!.asked.asOf).toBe('2026-01-19');
    },
    60_000,
  );
});
