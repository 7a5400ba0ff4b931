/**
 * Backtest of the demand forecast (decision 040): the last complete months before the as-of day are held
 * out; the forecast is fitted on fills before the first of them only (the histories are cut before the
 * forecast sees them) and compared with the fills that happened, next to a naive baseline — each held-out
 * month forecast as the fills of the month one quarter earlier (the last quarter's monthly fills repeated).
 */
import { forecastDemand } from './demand-forecast';
import { completeMonthsBefore, type MonthSpan } from './months';
import type { Fill } from './persistence';

export const HELD_OUT_MONTHS = 3;

export type BacktestMonth = {
  label: string;
  forecast: number;
  low: number;
  high: number;
  naive: number;
  actual: number;
};

export type Backtest = {
  /** Patients feeding the fitted forecast (fills in its window before the held-out months). */
  patients: number;
  months: BacktestMonth[];
  /** Mean absolute percentage error over months with actual fills > 0 (a share, 0.1 = 10 %); null without any. */
  forecastMape: number | null;
  naiveMape: number | null;
  forecastMeanAbsoluteError: number;
  naiveMeanAbsoluteError: number;
  /** Held-out months whose actual fills fell inside the forecast's 95 % interval. */
  withinInterval: number;
};

function fillsIn(histories: readonly (readonly Fill[])[], month: MonthSpan): number {
  let count = 0;
  for (const history of histories) for (const fill of history) if (fill.day >= month.start && fill.day < month.end) count += 1;
  return count;
}

function meanAbsolutePercentageError(pairs: readonly { predicted: number; actual: number }[]): number | null {
  const scored = pairs.filter((pair) => pair.actual > 0);
  if (scored.length === 0) return null;
  return scored.reduce((sum, pair) => sum + Math.abs(pair.predicted - pair.actual) / pair.actual, 0) / scored.length;
}

/** `histories`: fills before `asOf` (later ones are ignored). */
export function backtestDemand(options: {
  histories: readonly (readonly Fill[])[];
  asOf: number;
  forecast?: typeof forecastDemand;
}): Backtest {
  const heldOut = completeMonthsBefore(options.asOf, HELD_OUT_MONTHS);
  const cutoff = heldOut[0]!.start;
  const known = options.histories.map((history) => history.filter((fill) => fill.day < options.asOf));
  // The model and the baseline see only what was known at the cutoff.
  const fitted = known.map((history) => history.filter((fill) => fill.day < cutoff));
  const forecast = (options.forecast ?? forecastDemand)({ histories: fitted, asOf: cutoff, months: HELD_OUT_MONTHS });
  const quarterBefore = completeMonthsBefore(cutoff, HELD_OUT_MONTHS);
  return scoreBacktest({
    forecast,
    naive: quarterBefore.map((month) => fillsIn(fitted, month)),
    actual: heldOut.map((month) => fillsIn(known, month)),
    asOf: options.asOf,
  });
}

/** Which held-out month (0–2) or month a quarter before it (3–5) a fill day falls in, else null (backtestDemand's counts). */
export function backtestMonthOf(day: number, asOf: number): number | null {
  const heldOut = completeMonthsBefore(asOf, HELD_OUT_MONTHS);
  const quarterBefore = completeMonthsBefore(heldOut[0]!.start, HELD_OUT_MONTHS);
  const held = heldOut.findIndex((month) => day >= month.start && day < month.end);
  if (held !== -1) return held;
  const before = quarterBefore.findIndex((month) => day >= month.start && day < month.end);
  return before === -1 ? null : HELD_OUT_MONTHS + before;
}

/** The backtest's errors from the forecast fitted at the cutoff and the held-out and naive months' fills. */
export function scoreBacktest(options: {
  forecast: ReturnType<typeof forecastDemand>;
  naive: readonly number[];
  actual: readonly number[];
  asOf: number;
}): Backtest {
  const { forecast } = options;
  const heldOut = completeMonthsBefore(options.asOf, HELD_OUT_MONTHS);
  const months = heldOut.map((month, index) => {
    const predicted = forecast.months[index]!;
    return {
      label: month.label,
      forecast: predicted.expectedFills,
      low: predicted.fillsLow,
      high: predicted.fillsHigh,
      naive: options.naive[index]!,
      actual: options.actual[index]!,
    };
  });
  const meanAbsolute = (key: 'forecast' | 'naive') =>
    months.reduce((sum, month) => sum + Math.abs(month[key] - month.actual), 0) / months.length;
  return {
    patients: forecast.patients,
    months,
    forecastMape: meanAbsolutePercentageError(months.map((month) => ({ predicted: month.forecast, actual: month.actual }))),
    naiveMape: meanAbsolutePercentageError(months.map((month) => ({ predicted: month.naive, actual: month.actual }))),
    forecastMeanAbsoluteError: meanAbsolute('forecast'),
    naiveMeanAbsoluteError: meanAbsolute('naive'),
    withinInterval: months.filter((month) => month.actual >= month.low && month.actual <= month.high).length,
  };
}
