/**
 * Demand forecast (docs/decisions/040): expected fills and units in the next calendar months for a set of
 * patients' fill histories, from each current patient's refill rhythm and the cohort's persistence, plus
 * episode starts (new patients and restarts) at the recent rate.
 *
 * - Episodes: a 60-day permissible gap (persistence.ts). A patient whose last episode is still open at the
 *   as-of day is current.
 * - Persistence: Kaplan–Meier over every episode in the fitting window (stopped = event, open = censored).
 * - A current patient's projected fills: every I days from the last fill (I = median of the episode's last
 *   refill intervals, else the last fill's days' supply); an overdue one is due on the as-of day. The next
 *   fill happens with probability q(x), x = days since the supply ran out (refill-lateness.ts: of the
 *   observed fills as late as this, the share refilled rather than stopped); a later fill at day f also
 *   needs persisting from the next fill f₁ to f: q(x) · S(f − start) / S(f₁ − start). Each fill brings the
 *   median units of the episode's last fills.
 * - Episode starts: arrive as a Poisson process at the rate of the last complete months before the as-of day,
 *   each then filling every I₀ days (median interval of current patients) while persisting, S(t).
 * - Interval: patients are independent; one patient's fills in a month are nested Bernoullis (a later one
 *   needs every earlier one), so their variance is exact; episode starts add a compound Poisson variance.
 *   Normal approximation, ±1.96 SD, floored at 0. It ignores the estimation error of S and I (decision 040).
 */
import { addHistoryCells, type ForecastCells, type ForecastInputs, forecastInputsOf, START_RATE_MONTHS } from './forecast-cells';
import { completeMonthsBefore, type MonthSpan, monthsFrom } from './months';
import { refillProbability } from './refill-lateness';
import { type Fill, type SurvivalCurve, survivalAt } from './persistence';

export { FIT_LOOKBACK_DAYS, RECENT_FILLS, START_RATE_MONTHS } from './forecast-cells';
const Z_95 = 1.959963984540054;

export type DemandMonth = {
  label: string;
  expectedFills: number;
  fillsLow: number;
  fillsHigh: number;
  expectedUnits: number;
  unitsLow: number;
  unitsHigh: number;
  /** The part of expectedFills from episode starts after the as-of day. */
  fillsFromStarts: number;
};

export type DemandForecast = {
  asOf: number;
  months: DemandMonth[];
  /** Histories (a patient's fills of one product, say) with a fill in the fitting window; all feed the fit. */
  patients: number;
  /** Patients still on therapy at the as-of day. */
  currentPatients: number;
  episodeStartsPerMonth: number;
  /** Median refill interval of current patients (days); null without any. */
  medianRefillIntervalDays: number | null;
};

/** Median of values given as ascending [value, count] pairs. */
function countedMedian(pairs: readonly (readonly [number, number])[]): number | null {
  const total = pairs.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const nth = (rank: number) => {
    let seen = 0;
    for (const [value, count] of pairs) {
      seen += count;
      if (seen > rank) return value;
    }
    return pairs[pairs.length - 1]![0];
  };
  const middle = total >> 1;
  return total % 2 === 1 ? nth(middle) : (nth(middle - 1) + nth(middle)) / 2;
}

/** Mean and variance of how many of the nested events happen (probabilities non-increasing in order). */
export function nestedBernoulliMoments(probabilities: readonly number[]): { mean: number; variance: number } {
  // E[X²] = Σ p_k + 2 Σ_{k<l} p_l, since fill l happening implies every earlier fill k happened.
  let mean = 0;
  let secondMoment = 0;
  probabilities.forEach((probability, index) => {
    mean += probability;
    secondMoment += probability * (1 + 2 * index);
  });
  return { mean, variance: Math.max(0, secondMoment - mean * mean) };
}

type Accumulator = { fills: number; fillsVariance: number; units: number; unitsVariance: number; fromStarts: number };

/** Adds one fill stream (days, probabilities) to the months, weighted (n identical patients: weight n; Poisson starts: weight = rate). */
function addStream(
  months: readonly MonthSpan[],
  totals: Accumulator[],
  days: readonly number[],
  probabilities: readonly number[],
  units: number,
  options: { weight: number; fromStarts: boolean },
): void {
  months.forEach((month, monthIndex) => {
    const inMonth: number[] = [];
    days.forEach((day, index) => {
      if (day >= month.start && day < month.end) inMonth.push(probabilities[index]!);
    });
    if (inMonth.length === 0) return;
    const { mean, variance } = nestedBernoulliMoments(inMonth);
    const total = totals[monthIndex]!;
    total.fills += options.weight * mean;
    total.units += options.weight * mean * units;
    if (options.fromStarts) {
      // Compound Poisson: Var = rate × E[Y²] = rate × (Var Y + (E Y)²).
      const secondMoment = variance + mean * mean;
      total.fillsVariance += options.weight * secondMoment;
      total.unitsVariance += options.weight * secondMoment * units * units;
      total.fromStarts += options.weight * mean;
    } else {
      total.fillsVariance += options.weight * variance;
      total.unitsVariance += options.weight * variance * units * units;
    }
  });
}

function projectedDays(first: number, interval: number, horizonEnd: number): number[] {
  const days: number[] = [];
  for (let day = first; day < horizonEnd; day += interval) days.push(day);
  return days;
}

function interval(low: number, mean: number, variance: number): [number, number] {
  const half = Z_95 * Math.sqrt(variance);
  return [Math.max(low, mean - half), mean + half];
}

/** `histories`: each patient's fills (any order); only fills before `asOf` are read. */
export function forecastDemand(options: { histories: readonly (readonly Fill[])[]; asOf: number; months?: number }): DemandForecast {
  const cells: ForecastCells = new Map();
  for (const history of options.histories) addHistoryCells(cells, history, options.asOf);
  return forecastFromInputs({ inputs: forecastInputsOf(cells), asOf: options.asOf, months: options.months });
}

/** Kaplan–Meier S(t) from [time, events, censored] ascending (as buildSurvivalCurve over the expanded subjects). */
function survivalCurveOf(subjects: readonly (readonly [number, number, number])[]): SurvivalCurve {
  let atRisk = subjects.reduce((sum, [, events, censored]) => sum + events + censored, 0);
  const times: number[] = [];
  const values: number[] = [];
  let survival = 1;
  for (const [time, events, censored] of subjects) {
    if (events > 0) {
      survival *= 1 - events / atRisk;
      times.push(time);
      values.push(survival);
    }
    atRisk -= events + censored;
  }
  return { times, values };
}

/** The forecast from summed history cells (forecast-cells.ts); the same inputs always give the same figures. */
export function forecastFromInputs(options: { inputs: ForecastInputs; asOf: number; months?: number }): DemandForecast {
  const { asOf, inputs } = options;
  const months = monthsFrom(asOf, options.months ?? 3);
  const horizonEnd = months[months.length - 1]!.end;
  const rateMonths = completeMonthsBefore(asOf, START_RATE_MONTHS);
  const rateStart = rateMonths[0]!.start;
  const rateEnd = rateMonths[rateMonths.length - 1]!.end;

  const curve = survivalCurveOf(inputs.subjects);
  const totals: Accumulator[] = months.map(() => ({ fills: 0, fillsVariance: 0, units: 0, unitsVariance: 0, fromStarts: 0 }));
  const refilled = new Float64Array(inputs.refilled.reduce((sum, [, count]) => sum + count, 0));
  let filled = 0;
  for (const [lateness, count] of inputs.refilled) {
    refilled.fill(lateness, filled, filled + count);
    filled += count;
  }
  const lateness = { refilled, stopped: inputs.stopped };
  let currentPatients = 0;
  for (const [start, lastFill, supplyEnd, interval, units, count] of inputs.current) {
    currentPatients += count;
    const days = projectedDays(Math.max(lastFill + interval, asOf), interval, horizonEnd);
    if (days.length === 0) continue;
    // The next refill: q(days overdue); each later one also needs persisting from the next refill on.
    const next = refillProbability(lateness, asOf - supplyEnd);
    const persistingAtNext = survivalAt(curve, days[0]! - start);
    const probabilities = days.map((day) =>
      persistingAtNext === 0 ? 0 : next * Math.min(1, survivalAt(curve, day - start) / persistingAtNext),
    );
    addStream(months, totals, days, probabilities, units, { weight: count, fromStarts: false });
  }

  const medianInterval = countedMedian(
    inputs.current.map(([, , , interval, , count]): [number, number] => [interval, count]).sort((left, right) => left[0] - right[0]),
  );
  const starts = inputs.startUnits.reduce((sum, [, count]) => sum + count, 0);
  const startsPerDay = starts / (rateEnd - rateStart);
  if (startsPerDay > 0) {
    const startInterval = Math.max(1, medianInterval ?? 30);
    const unitsPerStartFill = countedMedian(inputs.startUnits) ?? 0;
    // Each arrival day between the as-of day and the horizon, weighted by the daily rate.
    for (let arrival = asOf; arrival < horizonEnd; arrival += 1) {
      const days = projectedDays(arrival, startInterval, horizonEnd);
      const probabilities = days.map((day) => survivalAt(curve, day - arrival));
      addStream(months, totals, days, probabilities, unitsPerStartFill, { weight: startsPerDay, fromStarts: true });
    }
  }

  return {
    asOf,
    months: months.map((month, index) => {
      const total = totals[index]!;
      const [fillsLow, fillsHigh] = interval(0, total.fills, total.fillsVariance);
      const [unitsLow, unitsHigh] = interval(0, total.units, total.unitsVariance);
      return {
        label: month.label,
        expectedFills: total.fills,
        fillsLow,
        fillsHigh,
        expectedUnits: total.units,
        unitsLow,
        unitsHigh,
        fillsFromStarts: total.fromStarts,
      };
    }),
    patients: inputs.histories,
    currentPatients,
    episodeStartsPerMonth: starts / START_RATE_MONTHS,
    medianRefillIntervalDays: medianInterval,
  };
}
