import 'server-only';
/**
 * One of the demand forecast's two tables as CSV ("Download CSV"): the forecast months or the backtest, for
 * the products the page's forecast covers (the viewer's scope narrowed by the product and company filters, a
 * filter outside the scope ignored as the page ignores it; every region, said so, as the region filter does not
 * apply to the forecast). The same use case as the page, so the same suppression (fewer than 11 patients: no
 * figure; counts of 1–10 "<11") and an audit row naming the table.
 */
import type { Database } from '@/db/client';
import { findCohortScope } from '@/db/queries/cohort-scope';
import { csvLine } from '@/lib/csv';
import { AppError } from '@/lib/errors';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import type { DemandBacktestErrorDto, DemandForecastDto, ForecastCountDto } from '../demand-forecast-dto';
import { applyPortalFilters, type PortalFilters } from '../portal-tables';
import { forecastProductDemand } from './forecast-product-demand';
import { portalRefusal } from './get-portal-view';
import { findScopeProducts } from './load-portal-input';

export const forecastTableIds = ['demand-forecast', 'demand-backtest'] as const;
export type ForecastTableId = (typeof forecastTableIds)[number];
export const isForecastTable = (table: string): table is ForecastTableId => (forecastTableIds as readonly string[]).includes(table);

/** Shares as fractions with 4 decimals, like the portal's other CSVs. */
const share = (value: number | null) => (value === null ? 'n/a' : Number(value.toFixed(4)));
/** A count as the page shows it: the number, or "<11"/"suppressed" (the suppression is done once, in the DTO). */
const countCell = (value: ForecastCountDto) => (value.kind === 'count' ? value.value : value.label);
/** An error resting on a hidden count reads "hidden", as on the page. */
const errorCell = (error: DemandBacktestErrorDto | null, figure: (error: DemandBacktestErrorDto) => number | string) =>
  error === null ? 'hidden' : figure(error);

export function forecastTableCsv(table: ForecastTableId, forecast: DemandForecastDto): string {
  const notShown =
    forecast.suppressedReason === 'too-few-patients'
      ? 'Not shown: fewer than 11 patients (a forecast from so few could reveal them).'
      : 'Not shown: no product in your view matches this selection.';
  const head = [
    csvLine([
      table === 'demand-forecast' ? '# Demand forecast: expected fills and units in the next three months' : '# Demand forecast backtest',
    ]),
    csvLine([`# ${forecast.periodWording}`]),
    csvLine([`# ${forecast.regionWording}`]),
    ...(forecast.suppressed ? [] : [csvLine([`# ${forecast.methodWording}`])]),
    // The backtest's actual and naive fills are observed counts (the forecast's are the model's expectations).
    ...(table === 'demand-backtest'
      ? [
          csvLine([
            '# Counts of 1 to 10 fills are shown as <11; an error resting on a hidden count reads hidden (it would give the count away).',
          ]),
        ]
      : []),
  ];
  if (table === 'demand-forecast') {
    const columns = csvLine([
      'Month',
      'Expected fills',
      'Fills 95% low',
      'Fills 95% high',
      'Expected units',
      'Units 95% low',
      'Units 95% high',
    ]);
    if (forecast.suppressed) return [...head, columns, csvLine([notShown])].join('');
    return [
      ...head,
      columns,
      ...forecast.months.map((month) =>
        csvLine([month.label, month.expectedFills, month.fillsLow, month.fillsHigh, month.expectedUnits, month.unitsLow, month.unitsHigh]),
      ),
    ].join('');
  }
  const columns = csvLine([
    'Month',
    'Forecast fills',
    'Forecast 95% low',
    'Forecast 95% high',
    'Naive (same month a quarter earlier)',
    'Actual fills',
  ]);
  if (forecast.suppressed) return [...head, columns, csvLine([notShown])].join('');
  const backtest = forecast.backtest;
  if (backtest === null) return [...head, columns, csvLine(['Not shown: fewer than 11 patients feed the backtest’s fit.'])].join('');
  return [
    ...head,
    columns,
    ...backtest.months.map((month) =>
      csvLine([month.label, month.forecast, month.low, month.high, countCell(month.naive), countCell(month.actual)]),
    ),
    csvLine([
      'Mean absolute error (fills)',
      errorCell(backtest.forecastError, (error) => Number(error.meanAbsoluteError.toFixed(1))),
      '',
      '',
      errorCell(backtest.naiveError, (error) => Number(error.meanAbsoluteError.toFixed(1))),
      '',
    ]),
    csvLine([
      'Mean absolute percentage error (share)',
      errorCell(backtest.forecastError, (error) => share(error.mape)),
      '',
      '',
      errorCell(backtest.naiveError, (error) => share(error.mape)),
      '',
    ]),
    csvLine([
      'Months inside the 95% interval',
      backtest.withinInterval === null ? 'hidden' : `${backtest.withinInterval} of ${backtest.months.length}`,
      '',
      '',
      '',
      '',
    ]),
  ].join('');
}

export async function exportForecastTable(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  table: ForecastTableId;
  filters: PortalFilters;
  request: RequestContext;
  now: Date;
}): Promise<{ filename: string; csv: string }> {
  const { database, filters } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'portal:view',
    message: portalRefusal,
    audit: { database, action: 'portal.forecast-export-csv', ...options.request },
  });
  // The page's products: the scope narrowed by the filters, a filter naming nothing in the scope ignored.
  const scope = await findCohortScope({ database, actor });
  if (scope.kind === 'no-company') throw new AppError('forbidden', 'You belong to no drug company yet, so there is no table to download.');
  const scopeProducts = await findScopeProducts(database, scope);
  const applied: PortalFilters = {
    productId: scopeProducts.some((product) => product.id === filters.productId) ? filters.productId : null,
    companyId: scopeProducts.some((product) => product.companyId === filters.companyId) ? filters.companyId : null,
    region: null,
  };
  const productIds = applyPortalFilters(
    { audience: 'government', period: { start: 0, end: 0 }, products: scopeProducts, patients: [], fills: [] },
    applied,
  ).products.map((product) => product.id);
  const forecast = await forecastProductDemand({
    database,
    actor,
    productIds,
    region: filters.region,
    purpose: { kind: 'csv', table: options.table },
    request: options.request,
    now: options.now,
  });
  return { filename: `portal-${options.table}-as-of-${forecast.asOf}.csv`, csv: forecastTableCsv(options.table, forecast) };
}
