/** The demand forecast engine's public surface (docs/decisions/040). */
export { type Backtest, type BacktestMonth, backtestDemand, backtestMonthOf, HELD_OUT_MONTHS, scoreBacktest } from './backtest';
export { addCell, addCells, addHistoryCells, type ForecastCells, type ForecastInputs, forecastInputsOf } from './forecast-cells';
export {
  type DemandForecast,
  type DemandMonth,
  FIT_LOOKBACK_DAYS,
  forecastDemand,
  forecastFromInputs,
  nestedBernoulliMoments,
  RECENT_FILLS,
  START_RATE_MONTHS,
} from './demand-forecast';
export { completeMonthsBefore, type MonthSpan, monthsFrom } from './months';
export { buildSurvivalCurve, episodesOf, type Fill, PERMISSIBLE_GAP_DAYS, survivalAt } from './persistence';
