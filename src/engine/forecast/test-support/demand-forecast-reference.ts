/**
 * Test only: the demand forecast as computed before decision 057 (one pass over the histories, current patients
 * added one by one), kept so a test can show the cell-summed forecast gives the same figures.
 */
import type { SurvivalSubject } from '../../aggregation/kaplan-meier';
import { completeMonthsBefore, type MonthSpan, monthsFrom } from '../months';
import { observeRefillLateness, refillProbability, supplyEnds } from '../refill-lateness';
import { buildSurvivalCurve, episodesOf, type Fill, type SurvivalCurve, survivalAt, survivalSubject } from '../persistence';

/** Fills in the last this many days before the as-of day feed the fit. */
const FIT_LOOKBACK_DAYS = 730;
/** Complete months before the as-of day whose episode starts give the start rate. */
const START_RATE_MONTHS = 3;
/** Refill intervals and units taken from at most this many of an episode's last fills. */
const RECENT_FILLS = 6;
const Z_95 = 1.959963984540054;

type DemandMonth = {
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

type DemandForecast = {
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

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Mean and variance of how many of the nested events happen (probabilities non-increasing in order). */
function nestedBernoulliMoments(probabilities: readonly number[]): { mean: number; variance: number } {
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

/** Adds one fill stream (days, probabilities) to the months, weighted (Poisson starts: weight = rate). */
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
      total.fillsVariance += variance;
      total.unitsVariance += variance * units * units;
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
export function referenceForecastDemand(options: {
  histories: readonly (readonly Fill[])[];
  asOf: number;
  months?: number;
}): DemandForecast {
  const { asOf } = options;
  const months = monthsFrom(asOf, options.months ?? 3);
  const horizonEnd = months[months.length - 1]!.end;
  const fitStart = asOf - FIT_LOOKBACK_DAYS;
  const rateMonths = completeMonthsBefore(asOf, START_RATE_MONTHS);
  const rateStart = rateMonths[0]!.start;
  const rateEnd = rateMonths[rateMonths.length - 1]!.end;

  type Current = { start: number; lastFill: number; supplyEnd: number; interval: number; units: number };
  const knownHistories: Fill[][] = [];
  const current: Current[] = [];
  const subjects: SurvivalSubject[] = [];
  const startUnits: number[] = [];
  let patients = 0;
  let starts = 0;
  for (const history of options.histories) {
    const known = history.filter((fill) => fill.day < asOf).sort((left, right) => left.day - right.day);
    const inWindow = known.filter((fill) => fill.day >= fitStart);
    if (inWindow.length === 0) continue;
    patients += 1;
    knownHistories.push(inWindow);
    // Episodes over everything known, so an episode begun before the window keeps its true start.
    const episodes = episodesOf(known, asOf).filter((episode) => episode.end >= fitStart);
    for (const episode of episodes) {
      subjects.push(survivalSubject(episode));
      // Episode starts in the rate months: new patients and restarts after a gap longer than permitted.
      if (episode.start >= rateStart && episode.start < rateEnd) {
        starts += 1;
        startUnits.push(episode.fills[0]!.units);
      }
    }
    const last = episodes[episodes.length - 1];
    if (last === undefined || last.stopped) continue;
    const recent = last.fills.slice(-RECENT_FILLS - 1);
    const gaps = recent.slice(1).map((fill, index) => fill.day - recent[index]!.day);
    const lastFill = recent[recent.length - 1]!;
    current.push({
      start: last.start,
      lastFill: lastFill.day,
      supplyEnd: supplyEnds(last.fills).at(-1)!,
      interval: Math.max(1, median(gaps) ?? lastFill.daysSupply),
      units: median(recent.slice(-RECENT_FILLS).map((fill) => fill.units)) ?? 0,
    });
  }

  const curve: SurvivalCurve = buildSurvivalCurve(subjects);
  const totals: Accumulator[] = months.map(() => ({ fills: 0, fillsVariance: 0, units: 0, unitsVariance: 0, fromStarts: 0 }));
  const lateness = observeRefillLateness(knownHistories, asOf);
  for (const patient of current) {
    const days = projectedDays(Math.max(patient.lastFill + patient.interval, asOf), patient.interval, horizonEnd);
    if (days.length === 0) continue;
    // The next refill: q(days overdue); each later one also needs persisting from the next refill on.
    const next = refillProbability(lateness, asOf - patient.supplyEnd);
    const persistingAtNext = survivalAt(curve, days[0]! - patient.start);
    const probabilities = days.map((day) =>
      persistingAtNext === 0 ? 0 : next * Math.min(1, survivalAt(curve, day - patient.start) / persistingAtNext),
    );
    addStream(months, totals, days, probabilities, patient.units, { weight: 1, fromStarts: false });
  }

  const medianInterval = median(current.map((patient) => patient.interval));
  const startsPerDay = starts / (rateEnd - rateStart);
  if (startsPerDay > 0) {
    const startInterval = Math.max(1, medianInterval ?? 30);
    const unitsPerStartFill = median(startUnits) ?? 0;
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
    patients,
    currentPatients: current.length,
    episodeStartsPerMonth: starts / START_RATE_MONTHS,
    medianRefillIntervalDays: medianInterval,
  };
}
