import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { eq } from 'drizzle-orm';
import { auditLog, authUsers, companyMemberships, drugCompanies, products } from '@/db/schema';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { dayNumberFromCivil } from '@/engine/adherence';
import { noPortalFilters } from '../portal-tables';
import { exportForecastTable } from './export-forecast-table';
import { forecastProductDemand } from './forecast-product-demand';
import { testSessionUser } from '@/lib/server/session-testing';
import { addPortalTestPatient } from './test-support/portal-test-catalogue';

// Data through 28 February 2026: forecast March–May, backtest December–February.
const now = new Date('2026-02-28T12:00:00Z');
const today = dayNumberFromCivil(2026, 2, 28);

const user = testSessionUser;
const admin = user('admin-1', 'admin');
const manufacturer = user('manufacturer-1', 'drug-manufacturer');

/** 30-day fills every 30 days, the last today: 15 fills back to 420 days ago. */
const monthly = Array.from({ length: 15 }, (_, index) => today - 420 + index * 30);

async function addPatients(database: Database, count: number, productId: string, fillDays: number[]): Promise<void> {
  for (let patient = 0; patient < count; patient += 1) await addPortalTestPatient(database, productId, null, fillDays);
}

describe.each(testDatabaseBackends())('forecastProductDemand on $name', (backend) => {
  let database: TestDatabase;
  let db: Database;

  beforeEach(async () => {
    database = await backend.create();
    db = database.database;
    await db.insert(authUsers).values({ id: 'manufacturer-1', name: 'manufacturer-1', email: 'manufacturer-1@x.test' });
    await db.insert(drugCompanies).values([
      { id: 'company-a', name: 'Company A' },
      { id: 'company-b', name: 'Company B' },
    ]);
    await db.insert(products).values([
      { id: 'statin', companyId: 'company-a', name: 'Atorva 20', genericName: 'atorvastatin' },
      { id: 'other', companyId: 'company-b', name: 'Other 5', genericName: 'other' },
    ]);
    await db.insert(companyMemberships).values({ userId: 'manufacturer-1', companyId: 'company-a' });
  });

  afterEach(async () => {
    await database.dispose();
  });

  it('forecasts 12 steady monthly patients at 12 fills and 360 units a month, and backtests them exactly', async () => {
    await addPatients(db, 12, 'statin', monthly);
    const forecast = await forecastProductDemand({ database: db, actor: admin, productIds: ['statin'], now });
    expect(forecast).toMatchObject({ suppressed: false, suppressedReason: null, patients: 12, synthetic: true, asOf: '2026-02-28' });
    expect(forecast.products).toEqual([{ id: 'statin', name: 'Atorva 20' }]);
    // Each refills on days +29, +59, +89 after today: March 30, April 29, May 29; nobody has stopped.
    expect(forecast.months).toEqual(
      ['2026-03', '2026-04', '2026-05'].map((label) => ({
        label,
        expectedFills: 12,
        fillsLow: 12,
        fillsHigh: 12,
        expectedUnits: 360,
        unitsLow: 360,
        unitsHigh: 360,
      })),
    );
    expect(forecast.backtest!.months.map((month) => [month.label, month.forecast, month.actual])).toEqual(
      ['2025-12', '2026-01', '2026-02'].map((label) => [label, 12, { kind: 'count', value: 12 }]),
    );
    expect(forecast.backtest).toMatchObject({ forecastError: { mape: 0, meanAbsoluteError: 0 }, withinInterval: 3 });
    expect(forecast.regionWording).toBe('The forecast covers patients in every region.');
    expect(forecast.periodWording).toContain('Mar 2026 – May 2026');
    expect(forecast.periodWording).toContain('Synthetic demo data');
    // Asked months later, the forecast still runs from the latest fill (the data's end), not from today.
    const later = await forecastProductDemand({
      database: db,
      actor: admin,
      productIds: ['statin'],
      now: new Date('2026-06-10T08:00:00Z'),
    });
    expect(later).toEqual(forecast);
  });

  it('suppresses a forecast fed by fewer than 11 patients, with no figures', async () => {
    await addPatients(db, 10, 'statin', monthly);
    const forecast = await forecastProductDemand({ database: db, actor: admin, productIds: [], now });
    expect(forecast).toMatchObject({ suppressed: true, suppressedReason: 'too-few-patients', patients: null, months: [], backtest: null });
  });

  it("shows a manufacturer only their companies' products", async () => {
    await addPatients(db, 12, 'statin', monthly);
    await addPatients(db, 12, 'other', monthly);
    const own = await forecastProductDemand({ database: db, actor: manufacturer, productIds: [], now });
    expect(own.products.map((product) => product.id)).toEqual(['statin']);
    expect(own.patients).toBe(12);
    expect(own.months[0]!.expectedFills).toBe(12);
    const theirs = await forecastProductDemand({ database: db, actor: manufacturer, productIds: ['other'], now });
    expect(theirs).toMatchObject({ suppressed: true, suppressedReason: 'no-products', products: [], months: [] });
    const everything = await forecastProductDemand({ database: db, actor: admin, productIds: [], now });
    expect(everything.patients).toBe(24);
    expect(everything.months[0]!.expectedFills).toBe(24);
  });

  it('refuses viewers without the portal permission', async () => {
    for (const role of ['clinician', 'patient'] as const) {
      await expect(forecastProductDemand({ database: db, actor: user(`${role}-1`, role), productIds: [], now })).rejects.toMatchObject({
        code: 'forbidden',
      });
    }
    await expect(forecastProductDemand({ database: db, actor: null, productIds: [], now })).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  });

  it('records every forecast in the audit log (page or CSV, which products, suppressed or not) and every refusal', async () => {
    await addPatients(db, 12, 'statin', monthly);
    const request = { requestId: 'request-1', clientAddress: '127.0.0.1' };
    await forecastProductDemand({ database: db, actor: manufacturer, productIds: [], request, now });
    await exportForecastTable({ database: db, actor: manufacturer, table: 'demand-backtest', filters: noPortalFilters, request, now });
    await expect(
      exportForecastTable({
        database: db,
        actor: user('patient-1', 'patient'),
        table: 'demand-forecast',
        filters: noPortalFilters,
        request,
        now,
      }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    const rows = await db
      .select({
        action: auditLog.action,
        outcome: auditLog.outcome,
        actor: auditLog.actorUserId,
        requestId: auditLog.requestId,
        details: auditLog.details,
      })
      .from(auditLog)
      .where(eq(auditLog.requestId, 'request-1'))
      .orderBy(auditLog.id);
    expect(rows).toEqual([
      {
        action: 'portal.forecast-view',
        outcome: 'success',
        actor: 'manufacturer-1',
        requestId: 'request-1',
        details: { productIds: ['statin'], asOf: '2026-02-28', suppressed: null },
      },
      {
        action: 'portal.forecast-export-csv',
        outcome: 'success',
        actor: 'manufacturer-1',
        requestId: 'request-1',
        details: { table: 'demand-backtest', productIds: ['statin'], asOf: '2026-02-28', suppressed: null },
      },
      {
        action: 'portal.forecast-export-csv',
        outcome: 'denied',
        actor: 'patient-1',
        requestId: 'request-1',
        details: { reason: 'needs portal:view' },
      },
    ]);
  });

  it("writes the forecast's two tables as CSV with the page's figures, a manufacturer's filter outside their scope ignored", async () => {
    await addPatients(db, 12, 'statin', monthly);
    await addPatients(db, 12, 'other', monthly);
    const shown = await forecastProductDemand({ database: db, actor: manufacturer, productIds: ['statin'], now });
    const request = { requestId: 'request-2', clientAddress: '127.0.0.1' };
    const months = await exportForecastTable({
      database: db,
      actor: manufacturer,
      table: 'demand-forecast',
      filters: { ...noPortalFilters, productId: 'other', region: 'north' },
      request,
      now,
    });
    expect(months.filename).toBe('portal-demand-forecast-as-of-2026-02-28.csv');
    const lines = months.csv.trim().split(/\r?\n/);
    expect(lines[2]).toBe('# The region filter does not apply to the forecast: it covers patients in every region.');
    expect(lines[4]).toBe('Month,Expected fills,Fills 95% low,Fills 95% high,Expected units,Units 95% low,Units 95% high');
    expect(lines.slice(5)).toEqual(
      shown.months.map((month) =>
        [month.label, month.expectedFills, month.fillsLow, month.fillsHigh, month.expectedUnits, month.unitsLow, month.unitsHigh].join(','),
      ),
    );
    const backtest = await exportForecastTable({
      database: db,
      actor: manufacturer,
      table: 'demand-backtest',
      filters: noPortalFilters,
      request,
      now,
    });
    const backtestLines = backtest.csv.trim().split(/\r?\n/);
    expect(backtestLines.slice(6, 9)).toEqual(
      // The naive baseline: fills of September–November 2025 (two 30-day fills fall in October).
      shown.backtest!.months.map((month, index) => [month.label, month.forecast, month.low, month.high, [12, 24, 12][index], 12].join(',')),
    );
    expect(backtestLines[9]).toBe(
      `Mean absolute error (fills),${shown.backtest!.forecastError!.meanAbsoluteError},,,${shown.backtest!.naiveError!.meanAbsoluteError},`,
    );
  });

  it('shows backtest fills of 1–10 as "<11" on the page and in the CSV, with the errors resting on them hidden', async () => {
    // 12 patients feed the backtest's fit, but only 5 fill in the held-out months (the other 7 stop in November):
    // actual fills 5 a month, the naive baseline (September–November) 12.
    await addPatients(db, 5, 'statin', monthly);
    await addPatients(
      db,
      7,
      'statin',
      monthly.filter((day) => day < dayNumberFromCivil(2025, 12, 1)),
    );
    const forecast = await forecastProductDemand({ database: db, actor: admin, productIds: ['statin'], now });
    expect(forecast).toMatchObject({ suppressed: false, patients: 12 });
    const backtest = forecast.backtest!;
    expect(backtest.months.map((month) => [month.label, month.actual, month.naive])).toEqual(
      ['2025-12', '2026-01', '2026-02'].map((label, index) => [
        label,
        { kind: 'hidden', label: '<11' },
        { kind: 'count', value: [12, 24, 12][index] },
      ]),
    );
    // A mean absolute error over the months would give |forecast − actual|, so the hidden actual up to two values.
    expect(backtest).toMatchObject({ forecastError: null, naiveError: null, withinInterval: null });
    // The 5 therapies still going are a count of 1–10 too.
    expect(forecast.periodWording).toContain('(<11 patient–product therapies still going)');
    expect(JSON.stringify(forecast)).not.toMatch(/"(actual|naive)":5\b/);

    const request = { requestId: 'request-4', clientAddress: '127.0.0.1' };
    const { csv } = await exportForecastTable({
      database: db,
      actor: admin,
      table: 'demand-backtest',
      filters: noPortalFilters,
      request,
      now,
    });
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[4]).toBe(
      '# Counts of 1 to 10 fills are shown as <11; an error resting on a hidden count reads hidden (it would give the count away).',
    );
    expect(lines.slice(6, 9)).toEqual(
      backtest.months.map((month, index) => [month.label, month.forecast, month.low, month.high, [12, 24, 12][index], '<11'].join(',')),
    );
    expect(lines.slice(9)).toEqual([
      'Mean absolute error (fills),hidden,,,hidden,',
      'Mean absolute percentage error (share),hidden,,,hidden,',
      'Months inside the 95% interval,hidden,,,,',
    ]);
  });

  it('writes a suppressed forecast as a CSV with no figure', async () => {
    await addPatients(db, 10, 'statin', monthly);
    const request = { requestId: 'request-3', clientAddress: '127.0.0.1' };
    for (const table of ['demand-forecast', 'demand-backtest'] as const) {
      const { csv } = await exportForecastTable({ database: db, actor: admin, table, filters: noPortalFilters, request, now });
      const lines = csv.trim().split(/\r?\n/);
      expect(lines.at(-1)).toBe('Not shown: fewer than 11 patients (a forecast from so few could reveal them).');
      expect(csv).not.toMatch(/^2026-/m);
    }
  });
});
