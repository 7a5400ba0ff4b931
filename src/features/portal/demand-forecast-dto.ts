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

export type DemandBacktestMonthDto = {
  /** Held-out calendar month, 'YYYY-MM'. */
  label: string;
  /** Expected fills forecast from fills before the held-out months. */
  forecast: number;
  low: number;
  high: number;
  /** The same month of the quarter before (last quarter repeated). */
  naive: number;
  actual: number;
};

export type DemandBacktestDto = {
  months: DemandBacktestMonthDto[];
  /** Mean absolute percentage error as a share (0.1 = 10 %) over months with actual fills; null without any. */
  forecastMape: number | null;
  naiveMape: number | null;
  forecastMeanAbsoluteError: number;
  naiveMeanAbsoluteError: number;
  /** Held-out months whose actual fills fell inside the forecast's 95 % interval. */
  withinInterval: number;
};

export type DemandForecastSuppression = 'too-few-patients' | 'no-products';

export type DemandForecastDto = {
  /** The last day of data the forecast uses (ISO date). */
  asOf: string;
  /** The products forecast together (names as shown). */
  products: { id: string; name: string }[];
  /** What period and population the figures cover. */
  periodWording: string;
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
