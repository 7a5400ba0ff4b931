/**
 * Small-cell suppression of the demand forecast section (issue 15, DESIGN.md §1, docs/decisions/040): the
 * portal's rule applied to every observed count the section shows or exports, through the same whole-page
 * engine as the other tables (src/engine/aggregation/page-suppression.ts). Pure and browser-safe, so the
 * property test can run it over random cohorts without a database.
 *
 * What is a count here, and why:
 * - The backtest's actual fills and naive baseline (fills of the month a quarter earlier) are observed counts
 *   of fills: 1–10 reads "<11" even when the backtest cohort has 11 patients or more.
 * - The patient–product therapies still going (in the wording) is an observed count: the same rule.
 * - The expected fills and units (forecast and backtest forecast) and their 95 % ranges are NOT counts: they
 *   are the model's expectations (sums of per-patient probabilities and a start rate) over at least 11
 *   patients, non-integer, and no shown relation turns them back into an observed count. They are shown
 *   whatever their size, since a small product's forecast is what its manufacturer needs.
 * - Errors rest on the counts: a mean absolute error with one actual hidden gives |forecast − actual|, i.e.
 *   the actual up to two values; the months inside the interval bound a hidden actual to [low, high]. So the
 *   model's errors and that count are shown only when every held-out actual is shown, the naive baseline's
 *   only when every actual and every naive count is (decision 040).
 * No relation adds these counts up on the page (no total of fills is shown), so no complementary cell is
 * needed today; they go through suppressPage all the same, so a total added later is suppressed with them.
 */
import { hiddenFigures, type HiddenReason, type PageCell, type PageDescription, suppressPage } from '@/engine/aggregation/page-suppression';
import { SUPPRESSED_LABEL } from '@/engine/aggregation/small-cell-suppression';
import type { Backtest } from '@/engine/forecast';
import type { DemandBacktestDto, ForecastCountDto } from './demand-forecast-dto';

/** Forecast figures are rounded for display; the engine keeps full precision. */
export const roundForecastFigure = (value: number) => Math.round(value * 10) / 10;

const actualId = (index: number) => `actual:${index}`;
const naiveId = (index: number) => `naive:${index}`;
const CURRENT_THERAPIES = 'current-therapies';

export function suppressDemandForecast(options: {
  /** Patient–product therapies still going at the as-of day. */
  currentTherapies: number;
  /** Null when the backtest is not shown at all (fewer than 11 patients feed its fit). */
  backtest: Backtest | null;
}): {
  currentTherapies: ForecastCountDto;
  backtest: DemandBacktestDto | null;
  /** The section described as page cells, and the hidden ones (for the suppression audit in tests). */
  page: PageDescription;
  hidden: ReadonlyMap<string, HiddenReason>;
} {
  const { backtest } = options;
  const months = backtest?.months ?? [];
  const cells: PageCell[] = [
    { id: CURRENT_THERAPIES, count: options.currentTherapies },
    ...months.flatMap((month, index) => [
      { id: actualId(index), count: month.actual },
      { id: naiveId(index), count: month.naive },
    ]),
  ];
  const page: PageDescription = { cells, sums: [] };
  const { hidden } = suppressPage(page);
  const shown = (id: string, count: number): ForecastCountDto => {
    const reason = hidden.get(id);
    if (reason === undefined) return { kind: 'count', value: count };
    return { kind: 'hidden', label: reason === 'small' ? SUPPRESSED_LABEL : 'suppressed' };
  };
  const currentTherapies = shown(CURRENT_THERAPIES, options.currentTherapies);
  if (backtest === null) return { currentTherapies, backtest: null, page, hidden };
  const actuals = months.map((_, index) => actualId(index));
  const derived = hiddenFigures(
    {
      forecastError: actuals,
      naiveError: [...actuals, ...months.map((_, index) => naiveId(index))],
      withinInterval: actuals,
    },
    hidden,
  );
  return {
    currentTherapies,
    backtest: {
      months: months.map((month, index) => ({
        label: month.label,
        forecast: roundForecastFigure(month.forecast),
        low: roundForecastFigure(month.low),
        high: roundForecastFigure(month.high),
        naive: shown(naiveId(index), month.naive),
        actual: shown(actualId(index), month.actual),
      })),
      forecastError: derived.has('forecastError')
        ? null
        : { meanAbsoluteError: backtest.forecastMeanAbsoluteError, mape: backtest.forecastMape },
      naiveError: derived.has('naiveError') ? null : { meanAbsoluteError: backtest.naiveMeanAbsoluteError, mape: backtest.naiveMape },
      withinInterval: derived.has('withinInterval') ? null : backtest.withinInterval,
    },
    page,
    hidden,
  };
}
