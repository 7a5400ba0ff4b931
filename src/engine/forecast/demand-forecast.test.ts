import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil } from '../adherence/day-number';
import { backtestDemand } from './backtest';
import { forecastDemand, nestedBernoulliMoments } from './demand-forecast';
import { completeMonthsBefore, monthsFrom } from './months';
import { episodesOf, type Fill } from './persistence';
import { observeRefillLateness, refillProbability } from './refill-lateness';

// As of 1 March 2026: forecast months March [D, D+31), April [D+31, D+61), May [D+61, D+92); the start-rate
// months December–February hold 31 + 31 + 28 = 90 days.
const D = dayNumberFromCivil(2026, 3, 1);
const fills = (days: number[], units = 30, daysSupply = 30): Fill[] => days.map((day) => ({ day, units, daysSupply }));

/** Refills every 30 days for a year: first D − 360, last D − 30. */
const steady = fills(Array.from({ length: 12 }, (_, index) => D - 360 + index * 30));
/** Six monthly fills from D − 400; supply ran out at D − 220: stopped after 180 days. */
const stopper = fills([D - 400, D - 370, D - 340, D - 310, D - 280, D - 250]);
/** Monthly 10-unit fills since D − 130, last at D − 10. */
const recent = fills([D - 130, D - 100, D - 70, D - 40, D - 10], 10);

describe('months', () => {
  it('starts on the as-of day when it is the first, else the next month; complete months end by it', () => {
    expect(monthsFrom(D, 3).map((month) => month.label)).toEqual(['2026-03', '2026-04', '2026-05']);
    expect(monthsFrom(D + 1, 1)[0]).toEqual({ label: '2026-04', start: D + 31, end: D + 61 });
    expect(completeMonthsBefore(D, 3).map((month) => month.label)).toEqual(['2025-12', '2026-01', '2026-02']);
    expect(completeMonthsBefore(D + 5, 1)[0]!.label).toBe('2026-02');
    expect(completeMonthsBefore(dayNumberFromCivil(2026, 1, 15), 2).map((month) => month.label)).toEqual(['2025-11', '2025-12']);
  });
});

describe('episodes with a 60-day permissible gap', () => {
  it('ends an episode when supply ran out more than 60 days before the next fill or the as-of day', () => {
    expect(episodesOf(stopper, D)).toMatchObject([{ start: D - 400, end: D - 220, stopped: true }]);
    expect(episodesOf(steady, D)).toMatchObject([{ start: D - 360, end: D, stopped: false }]);
    // 31 days uncovered, then 61: the second gap splits.
    const split = episodesOf(fills([D - 200, D - 139, D - 48]), D);
    expect(split.map((episode) => [episode.start, episode.end, episode.stopped])).toEqual([
      [D - 200, D - 109, true],
      [D - 48, D, false],
    ]);
  });
});

describe('nested Bernoulli moments', () => {
  it('gives the mean and variance of how many of nested events happen', () => {
    // P(X=0)=0.2, P(X=1)=0.3, P(X=2)=0.5 for probabilities 0.8, 0.5: mean 1.3, E[X²] 2.3, variance 0.61.
    const { mean, variance } = nestedBernoulliMoments([0.8, 0.5]);
    expect(mean).toBeCloseTo(1.3, 12);
    expect(variance).toBeCloseTo(0.61, 12);
    expect(nestedBernoulliMoments([1, 1, 1])).toEqual({ mean: 3, variance: 0 });
  });
});

describe('forecastDemand, hand-computed', () => {
  it('a patient refilling every 30 days: fills on D, D+30 (March), D+60 (April), D+90 (May), no uncertainty', () => {
    const forecast = forecastDemand({ histories: [steady], asOf: D });
    expect(forecast.months.map((month) => month.label)).toEqual(['2026-03', '2026-04', '2026-05']);
    expect(forecast.months.map((month) => month.expectedFills)).toEqual([2, 1, 1]);
    expect(forecast.months.map((month) => month.expectedUnits)).toEqual([60, 30, 30]);
    expect(forecast.months.map((month) => [month.fillsLow, month.fillsHigh])).toEqual([
      [2, 2],
      [1, 1],
      [1, 1],
    ]);
    expect(forecast).toMatchObject({ patients: 1, currentPatients: 1, episodeStartsPerMonth: 0, medianRefillIntervalDays: 30 });
  });

  it('one who stopped lowers the refill probability and the persistence of a current patient past the stop time', () => {
    // Refill lateness: 20 refills on the day the supply ran out (11 steady, 5 stopper, 4 recent) and 1 stop,
    // so a patient not yet refilled at lateness ≤ 0 refills with q = 20/21.
    // Kaplan–Meier: steady censored at 360, recent at 130, stopper stopped at 180 → S = 1/2 from 180.
    // steady: fills on D, D+30 (March), D+60, D+90; S(360 …) all 1/2 → q each. recent (start D − 130):
    // D+20, D+50, D+80, i.e. 150, 180, 210 days: q, q × (1/2) / 1, q × (1/2) / 1.
    const q = 20 / 21;
    const forecast = forecastDemand({ histories: [steady, stopper, recent], asOf: D });
    expect(forecast.patients).toBe(3);
    expect(forecast.currentPatients).toBe(2);
    const [march, april, may] = forecast.months;
    expect(march!.expectedFills).toBeCloseTo(3 * q, 12);
    expect(april!.expectedFills).toBeCloseTo(1.5 * q, 12);
    expect(may!.expectedFills).toBeCloseTo(1.5 * q, 12);
    expect(march!.expectedUnits).toBeCloseTo(70 * q, 12);
    // March variance: steady's two nested fills 4q(1 − q), recent's one q(1 − q); units 30² × 4q(1 − q) + 10² × q(1 − q).
    const z = 1.959963984540054;
    expect(march!.fillsHigh).toBeCloseTo(3 * q + z * Math.sqrt(5 * q * (1 - q)), 9);
    expect(march!.fillsLow).toBeCloseTo(3 * q - z * Math.sqrt(5 * q * (1 - q)), 9);
    expect(march!.unitsHigh).toBeCloseTo(70 * q + z * Math.sqrt(3700 * q * (1 - q)), 9);
    expect(march!.fillsFromStarts).toBe(0);
  });

  it('a new start carries the recent start rate forward (1 start in 90 days, one fill every 30 days)', () => {
    const newcomer = fills([D - 20]);
    const forecast = forecastDemand({ histories: [newcomer], asOf: D });
    expect(forecast.episodeStartsPerMonth).toBeCloseTo(1 / 3, 12);
    // Arrivals on each day a of [0, 92) at 1/90 a day, filling on a, a+30, a+60, …: (a, k) pairs landing in
    // March [0, 31): 31 + 1; April [31, 61): 30 + 30 + 1; May [61, 92): 31 + 31 + 31 + 2.
    const fromStarts = forecast.months.map((month) => month.fillsFromStarts);
    [32 / 90, 61 / 90, 95 / 90].forEach((expected, index) => expect(fromStarts[index]).toBeCloseTo(expected, 12));
    // The newcomer itself (interval = its days' supply) fills on D+10, D+40, D+70: one a month.
    [1 + 32 / 90, 1 + 61 / 90, 1 + 95 / 90].forEach((expected, index) =>
      expect(forecast.months[index]!.expectedFills).toBeCloseTo(expected, 12),
    );
    // Compound Poisson variance in March: (arrival 0 has 2 fills: 4, arrivals 1..30 one: 30) / 90.
    const march = forecast.months[0]!;
    expect(march.fillsHigh - march.expectedFills).toBeCloseTo(1.959963984540054 * Math.sqrt(34 / 90), 9);
  });

  it('reads no fill on or after the as-of day', () => {
    const withFuture = [...steady, ...fills([D, D + 5, D + 40])];
    expect(forecastDemand({ histories: [withFuture], asOf: D })).toEqual(forecastDemand({ histories: [steady], asOf: D }));
  });
});

describe('backtestDemand', () => {
  const asOf = dayNumberFromCivil(2026, 6, 10);
  // Held out: March, April, May 2026; fitted on fills before 1 March; baseline: December–February.
  const monthly = (first: number, count: number): Fill[] => fills(Array.from({ length: count }, (_, index) => first + index * 30));

  it('holds out the last three complete months and compares with the last quarter repeated', () => {
    const patient = monthly(D - 360, 15); // refills through D + 60; none after
    const backtest = backtestDemand({ histories: [patient], asOf });
    expect(backtest.months.map((month) => month.label)).toEqual(['2026-03', '2026-04', '2026-05']);
    // Fitted: last fill D − 30, so D, D+30 in March, D+60 in April, D+90 in May.
    expect(backtest.months.map((month) => month.forecast)).toEqual([2, 1, 1]);
    // Actual: D, D+30 (March), D+60 (April), none in May. Naive: fills in December, January, February.
    expect(backtest.months.map((month) => month.actual)).toEqual([2, 1, 0]);
    const quarterBefore = completeMonthsBefore(D, 3);
    const naive = quarterBefore.map((month) => patient.filter((fill) => fill.day >= month.start && fill.day < month.end).length);
    expect(backtest.months.map((month) => month.naive)).toEqual(naive);
    expect(backtest.forecastMeanAbsoluteError).toBeCloseTo(1 / 3, 12);
    expect(backtest.forecastMape).toBe(0); // May (actual 0) is left out of the percentage error
    expect(backtest.withinInterval).toBe(2);
  });

  it('never uses held-out data: the forecast and baseline ignore any change to the held-out months', () => {
    const patients = [monthly(D - 360, 15), monthly(D - 200, 10), fills([D - 90, D - 45], 20)];
    const before = backtestDemand({ histories: patients, asOf });
    const changed = patients.map((history, index) => [...history, ...fills([D + 3 + index, D + 33, D + 70, D + 80], 99, 5)]);
    const after = backtestDemand({ histories: changed, asOf });
    expect(after.months.map((month) => [month.forecast, month.low, month.high, month.naive])).toEqual(
      before.months.map((month) => [month.forecast, month.low, month.high, month.naive]),
    );
    expect(after.months.map((month) => month.actual)).not.toEqual(before.months.map((month) => month.actual));
  });

  it('hands the model only fills before the held-out months', () => {
    const seen: number[] = [];
    backtestDemand({
      histories: [monthly(D - 360, 15)],
      asOf,
      forecast: (options) => {
        for (const history of options.histories) for (const fill of history) seen.push(fill.day);
        return forecastDemand(options);
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(Math.max(...seen)).toBeLessThan(D);
  });
});

describe('refill lateness', () => {
  it('counts refills by lateness (supply carried over), stops, and leaves out fills whose outcome is unknown', () => {
    const history = fills([D - 300, D - 280, D - 200, D - 50]);
    // Ends: −270, −240 (carried), −170, −20. Lateness: −280 − (−270) = −10, −200 − (−240) = 40, −50 − (−170) = 120 (> 60: stop),
    // last: supply out at D − 20, +60 > D: unknown.
    const lateness = observeRefillLateness([history], D);
    expect({ refilled: [...Array.from(lateness.refilled)], stopped: lateness.stopped }).toEqual({ refilled: [-10, 40], stopped: 1 });
    expect(refillProbability(lateness, -20)).toBeCloseTo(2 / 3, 12);
    expect(refillProbability(lateness, 0)).toBeCloseTo(1 / 2, 12);
    expect(refillProbability(lateness, 41)).toBe(0);
    expect(refillProbability({ refilled: [], stopped: 0 }, 10)).toBe(1);
  });
});
