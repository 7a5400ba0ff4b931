import 'server-only';
/**
 * The portal's demand forecast (issue 15, docs/decisions/040): expected fills and units of a product (or a
 * set; none named: every product in the viewer's scope) for the next three calendar months, with a
 * backtest on the last three complete months. Each patient's fills, one history per product, become counted
 * cells (src/engine/forecast/forecast-cells.ts) whose sums give every figure — read from the pre-aggregate when it
 * holds the product set (decision 057), else summed from the fills now. Only aggregates leave: fewer than 11
 * patients feeding the forecast and it is suppressed with no figures, for every viewer (a forecast over so few
 * patients would reveal them).
 */
import { and, asc, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { findCohortScope, scopeProductIds } from '@/db/queries/cohort-scope';
import { dispensings, products } from '@/db/schema';
import { dayNumberFromIso, isoFromDayNumber } from '@/engine/adherence/day-number';
import { MINIMUM_GROUP_SIZE } from '@/db/queries/suppression';
import { addCells, completeMonthsBefore, FIT_LOOKBACK_DAYS, HELD_OUT_MONTHS, PERMISSIBLE_GAP_DAYS } from '@/engine/forecast';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import type { DemandForecastDto, DemandForecastSuppression } from '../demand-forecast-dto';
import { roundForecastFigure, suppressDemandForecast } from '../suppress-demand-forecast';
import {
  forecastFiguresOf,
  forecastSetKeyOf,
  loadForecastCatalogue,
  loadForecastPatients,
  findLatestBuiltForecastBase,
  forecastRefreshKeyOf,
  loadStoredForecastCells,
  patientProductCells,
  patientSetCells,
} from './portal-forecast-summaries';
import { queueRefreshFor } from './portal-patient-summaries';

/**
 * The forecast is of every region: its pre-aggregate (decision 057) is kept per product set, not per region, and
 * computing a region per request costs seconds at national scale (decision 060). So the page's region filter is
 * not applied to it, and the page and the CSV say so.
 */
export function forecastRegionWording(region: string | null): string {
  return region === null
    ? 'The forecast covers patients in every region.'
    : 'The region filter does not apply to the forecast: it covers patients in every region.';
}

const methodWording =
  `Each current patient's next fills follow their recent refill interval, each counted with the probability that they are still on therapy then ` +
  `(Kaplan–Meier persistence, a stop after ${PERMISSIBLE_GAP_DAYS} days without supply); starts and restarts continue at the rate of the last ` +
  `${HELD_OUT_MONTHS} complete months. The range is a 95 % interval for patients' stopping and new starts, not for the model's own error; ` +
  `the backtest forecasts the last ${HELD_OUT_MONTHS} complete months from the data before them, next to those months' fills a quarter earlier.`;

const monthName = (label: string) =>
  new Date(`${label}-01T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const longDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

/** What the forecast's wording adds while a newer as-of day is being built (decision 060). */
export function pendingForecastWording(pending: NonNullable<DemandForecastDto['pending']>): string {
  return (
    `These are the latest figures the portal's summaries hold: newer fills (from ${longDate(pending.newDataFrom)} up to ` +
    `${longDate(pending.dataUpTo)}) are being added, and the refresh that adds them is ${pending.refresh}.`
  );
}

/**
 * The forecast, recorded in the audit log like a portal view (who, which products, page or which table's CSV,
 * whether it was suppressed); refusals are recorded as denied.
 */
export async function forecastProductDemand(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  /** Empty: every product the viewer may see. */
  productIds: readonly string[];
  /** The page's region filter: not applied (see forecastRegionWording), only said so. */
  region?: string | null;
  /** Which figure was asked for, for the audit log: the page's section, or one table's CSV. */
  purpose?: { kind: 'page' } | { kind: 'csv'; table: string };
  request?: RequestContext;
  now: Date;
  /** Tests and the bench: compute from every fill even when the pre-aggregate could answer. */
  perRequest?: boolean;
  /** Tests: the patient count from which an as-of day not built yet is shown from the newest built one (decision 060). */
  builtBaseMinPatients?: number;
}): Promise<DemandForecastDto> {
  const purpose = options.purpose ?? { kind: 'page' };
  const action = purpose.kind === 'page' ? 'portal.forecast-view' : 'portal.forecast-export-csv';
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'portal:view',
    message: 'The portal is for manufacturers, officials and admins',
    audit: { database: options.database, action, ...options.request },
  });
  const forecast = await computeForecast({ ...options, actor });
  await recordAuditEvent(options.database, {
    action,
    outcome: 'success',
    actorUserId: actor.id,
    ...options.request,
    details: {
      ...(purpose.kind === 'csv' ? { table: purpose.table } : {}),
      productIds: forecast.products.map((product) => product.id),
      asOf: forecast.asOf,
      ...(forecast.pending === null ? {} : { newDataFrom: forecast.pending.newDataFrom }),
      suppressed: forecast.suppressedReason,
    },
  });
  return forecast;
}

async function computeForecast(options: {
  database: Database;
  actor: Pick<SessionUser, 'id' | 'role'>;
  productIds: readonly string[];
  region?: string | null;
  now: Date;
  perRequest?: boolean;
  builtBaseMinPatients?: number;
}): Promise<DemandForecastDto> {
  const { database, actor } = options;

  const scope = await findCohortScope({ database, actor });
  const visible = scopeProductIds(scope);
  const requested = [...new Set(options.productIds)];
  // Manufacturers never see another company's product: a product outside the scope is dropped, silently.
  const productIds =
    visible === null
      ? requested.length > 0
        ? requested
        : null
      : requested.length > 0
        ? requested.filter((id) => visible.includes(id))
        : visible;

  const productRows =
    productIds !== null && productIds.length === 0
      ? []
      : await database
          .select({ id: products.id, name: products.name })
          .from(products)
          .where(productIds === null ? undefined : inArray(products.id, productIds))
          .orderBy(asc(products.name));
  const today = dayNumberFromIso(options.now.toISOString().slice(0, 10));
  const regionWording = forecastRegionWording(options.region ?? null);
  const suppressedDto = (reason: DemandForecastSuppression, lastDay: number, wording: string, synthetic: boolean): DemandForecastDto => ({
    asOf: isoFromDayNumber(lastDay),
    products: productRows,
    periodWording: wording,
    regionWording,
    methodWording,
    synthetic,
    suppressed: true,
    suppressedReason: reason,
    pending: null,
    patients: null,
    months: [],
    backtest: null,
  });
  if (productIds !== null && productRows.length === 0) {
    return suppressedDto('no-products', today, 'No product in your view matches this selection.', false);
  }

  // Data through its latest fill on or before today (demo data can end before today): the forecast and
  // the held-out months are counted from the day after.
  const productCondition =
    productIds === null
      ? undefined
      : inArray(
          dispensings.productId,
          productRows.map((product) => product.id),
        );
  const [latest] = await database
    .select({ day: sql<string | null>`max(${dispensings.dispensedOn})` })
    .from(dispensings)
    .where(and(productCondition, lte(dispensings.dispensedOn, isoFromDayNumber(today))));
  const dataLastDay = latest?.day == null ? today : dayNumberFromIso(String(latest.day).slice(0, 10));
  let asOf = dataLastDay + 1;

  // The figures are sums of per-patient cells (decision 057): from the pre-aggregate when it holds this product set
  // at this as-of day, else from every patient's fills now (and the set is registered for the refresh job).
  const chosenIds = productIds === null ? null : productRows.map((product) => product.id);
  const setKey = options.perRequest === true ? null : forecastSetKeyOf(chosenIds, await loadForecastCatalogue(database));
  let cells = setKey === null ? null : await loadStoredForecastCells({ database, setKey, productIds: chosenIds, asOf, now: options.now });
  // Not built yet at this as-of day (data arrived on a new day) and a large set: the newest built as-of day of the same
  // set is shown, and said so, while the refresh builds this one (decision 060).
  let pending: DemandForecastDto['pending'] = null;
  if (cells === null && setKey !== null) {
    const earlier = await findLatestBuiltForecastBase({
      database,
      setKey,
      productIds: chosenIds,
      before: asOf,
      minPatients: options.builtBaseMinPatients,
    });
    const stored =
      earlier === null ? null : await loadStoredForecastCells({ database, setKey, productIds: chosenIds, asOf: earlier, now: options.now });
    if (earlier !== null && stored !== null) {
      const refresh = await queueRefreshFor(database, forecastRefreshKeyOf(setKey, asOf));
      pending = { newDataFrom: isoFromDayNumber(earlier), dataUpTo: isoFromDayNumber(dataLastDay), refresh: refresh.status };
      cells = stored;
      asOf = earlier;
    }
  }
  const lastDay = asOf - 1;
  const heldOut = completeMonthsBefore(asOf, HELD_OUT_MONTHS);
  const fitFromDay = asOf - FIT_LOOKBACK_DAYS;
  if (cells === null) {
    cells = new Map();
    for (const patient of await loadForecastPatients({ database, asOf, productIds: chosenIds }))
      addCells(cells, patientSetCells(patientProductCells(patient, asOf), null));
  }
  const { forecast, backtest, patients: patientCount, backtestPatients, synthetic } = forecastFiguresOf(cells, asOf);

  const productWording = requested.length === 0 ? 'all products in your view' : productRows.map((product) => product.name).join(', ');
  const first = forecast.months[0]!.label;
  const last = forecast.months[forecast.months.length - 1]!.label;
  const fitFrom = isoFromDayNumber(fitFromDay);
  if (patientCount < MINIMUM_GROUP_SIZE) {
    return {
      ...suppressedDto(
        'too-few-patients',
        lastDay,
        `Fewer than ${MINIMUM_GROUP_SIZE} patients had a fill of ${productWording} between ${longDate(fitFrom)} and ${longDate(isoFromDayNumber(lastDay))}: the forecast is not shown.`,
        synthetic,
      ),
      pending,
    };
  }
  // Observed counts (the backtest's actual and naive fills, the therapies still going) are suppressed like every
  // portal count; the backtest is fitted on older data, so it is shown only when that too comes from enough patients.
  const suppressed = suppressDemandForecast({
    currentTherapies: forecast.currentPatients,
    backtest: backtestPatients < MINIMUM_GROUP_SIZE ? null : backtest,
  });
  const therapies =
    suppressed.currentTherapies.kind === 'count' ? String(suppressed.currentTherapies.value) : suppressed.currentTherapies.label;
  return {
    asOf: isoFromDayNumber(lastDay),
    products: productRows,
    methodWording,
    periodWording:
      `Fills of ${productWording} expected in ${monthName(first)} – ${monthName(last)}, from the fills of the ${patientCount} patients dispensed them ` +
      `between ${longDate(fitFrom)} and ${longDate(isoFromDayNumber(lastDay))} (${therapies} patient–product therapies still going); backtest on ` +
      `${monthName(heldOut[0]!.label)} – ${monthName(heldOut[heldOut.length - 1]!.label)}, forecast from the data before them.` +
      (synthetic ? ' Synthetic demo data.' : '') +
      (pending === null ? '' : ` ${pendingForecastWording(pending)}`),
    regionWording,
    synthetic,
    suppressed: false,
    suppressedReason: null,
    pending,
    patients: patientCount,
    // Expectations of the model over at least 11 patients, not observed counts: shown whatever their size (suppress-demand-forecast.ts).
    months: forecast.months.map((month) => ({
      label: month.label,
      expectedFills: roundForecastFigure(month.expectedFills),
      fillsLow: roundForecastFigure(month.fillsLow),
      fillsHigh: roundForecastFigure(month.fillsHigh),
      expectedUnits: roundForecastFigure(month.expectedUnits),
      unitsLow: roundForecastFigure(month.unitsLow),
      unitsHigh: roundForecastFigure(month.unitsHigh),
    })),
    backtest: suppressed.backtest,
  };
}
