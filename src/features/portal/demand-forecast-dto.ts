/**
 * What the portal's demand forecast section shows (issue 15, docs/decisions/040): aggregates only — the
 * forecast months, the backtest on held-out months and the wording of what they cover. Types only, so the
 * browser components can import it.
 */

export type DemandForecastMonthDto = {
  /** Calendar month, 'YYYY-MM'. */
  label: string;
  expectedFills: number;
  fillsLow: number;
  fillsHigh: number;
  expectedUnits: number;
  unitsLow: number;
  unitsHigh: number;
};

/**
 * An observed count as the viewer may see it (DESIGN.md §1): the number (0 or at least 11), or hidden — "<11"
 * for 1–10, "suppressed" when hidden so that a small one cannot be worked out. The true value never reaches the browser.
 */
export type ForecastCountDto = { kind: 'count'; value: number } | { kind: 'hidden'; label: string };

export type DemandBacktestMonthDto = {
  /** Held-out calendar month, 'YYYY-MM'. */
  label: string;
  /** Expected fills forecast from fills before the held-out months. */
  forecast: number;
  low: number;
  high: number;
  /** Fills in the same month of the quarter before (last quarter repeated): an observed count, suppressed. */
  naive: ForecastCountDto;
  /** Fills in the held-out month: an observed count, suppressed. */
  actual: ForecastCountDto;
};

export type DemandBacktestErrorDto = {
  meanAbsoluteError: number;
  /** Mean absolute percentage error as a share (0.1 = 10 %) over months with actual fills; null without any. */
  mape: number | null;
};

export type DemandBacktestDto = {
  months: DemandBacktestMonthDto[];
  /** The model's errors; null (hidden) when a month's actual is hidden, which they would give away. */
  forecastError: DemandBacktestErrorDto | null;
  /** The naive baseline's errors; null (hidden) when a month's actual or naive count is hidden. */
  naiveError: DemandBacktestErrorDto | null;
  /** Held-out months whose actual fills fell inside the forecast's 95 % interval; null (hidden) as forecastError. */
  withinInterval: number | null;
};

export type DemandForecastSuppression = 'too-few-patients' | 'no-products';

export type DemandForecastDto = {
  /** The last day of data the forecast uses (ISO date). */
  asOf: string;
  /** The products forecast together (names as shown). */
  products: { id: string; name: string }[];
  /** What period and population the figures cover. */
  periodWording: string;
  /** That the forecast covers every region, and that the page's region filter does not apply to it when one is set. */
  regionWording: string;
  /** How the figures are computed, in one sentence. */
  methodWording: string;
  /** True when any patient feeding the forecast is simulated ("synthetic demo data"). */
  synthetic: boolean;
  suppressed: boolean;
  suppressedReason: DemandForecastSuppression | null;
  /** Distinct patients with a fill in the fitting window; null when suppressed. */
  patients: number | null;
  /** Empty when suppressed. */
  months: DemandForecastMonthDto[];
  /** Null when suppressed, or when fewer than 11 patients feed the backtest's fit. */
  backtest: DemandBacktestDto | null;
  /**
   * Set when the figures are of an earlier as-of day than the data's, while the refresh builds the current one
   * (decision 060): the first day of fills not in them, the data's last day, and the refresh's state.
   */
  pending: { newDataFrom: string; dataUpTo: string; refresh: 'queued' | 'running' } | null;
};
