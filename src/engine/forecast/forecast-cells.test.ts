import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil } from '../adherence/day-number';
import { backtestDemand, backtestMonthOf, scoreBacktest } from './backtest';
import { forecastDemand, forecastFromInputs } from './demand-forecast';
import { referenceForecastDemand } from './test-support/demand-forecast-reference';
import { addCells, addHistoryCells, type ForecastCells, forecastInputsOf } from './forecast-cells';
import { completeMonthsBefore } from './months';
import type { Fill } from './persistence';

const asOf = dayNumberFromCivil(2026, 3, 17);
const fill = fc.record({
  day: fc.integer({ min: asOf - 1200, max: asOf + 60 }),
  units: fc.oneof(fc.integer({ min: 1, max: 120 }), fc.constantFrom(28.5, 0.5)),
  daysSupply: fc.constantFrom(7, 28, 30, 56, 90),
});
// Regular refillers too, so there are current patients, overdue ones and repeated states.
const regular = fc
  .record({
    first: fc.integer({ min: asOf - 900, max: asOf - 30 }),
    every: fc.constantFrom(28, 30, 31, 45),
    count: fc.integer({ min: 1, max: 30 }),
  })
  .map(({ first, every, count }) =>
    Array.from({ length: count }, (_, index) => ({ day: first + index * every, units: 30, daysSupply: 30 })),
  );
// Half the histories repeated: patients in the same state are summed as one cell with a count.
const histories = fc
  .array(fc.oneof(fc.array(fill, { maxLength: 25 }), regular), { maxLength: 40 })
  .map((cohort) => [...cohort, ...cohort.slice(0, cohort.length >> 1)]);

const close = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));

describe('the demand forecast from summed cells (decision 057)', () => {
  it('gives the figures of the computation before it (one pass over the histories), on random cohorts and as-of days', () => {
    fc.assert(
      fc.property(histories, fc.integer({ min: -40, max: 40 }), (cohort, shift) => {
        const day = asOf + shift;
        const forecast = forecastDemand({ histories: cohort, asOf: day });
        const reference = referenceForecastDemand({ histories: cohort, asOf: day });
        expect(forecast.patients).toBe(reference.patients);
        expect(forecast.currentPatients).toBe(reference.currentPatients);
        expect(forecast.medianRefillIntervalDays).toBe(reference.medianRefillIntervalDays);
        close(forecast.episodeStartsPerMonth, reference.episodeStartsPerMonth);
        forecast.months.forEach((month, index) => {
          const expected = reference.months[index]!;
          expect(month.label).toBe(expected.label);
          for (const key of [
            'expectedFills',
            'fillsLow',
            'fillsHigh',
            'expectedUnits',
            'unitsLow',
            'unitsHigh',
            'fillsFromStarts',
          ] as const)
            close(month[key], expected[key]);
        });
        const backtest = backtestDemand({ histories: cohort, asOf: day });
        const referenceBacktest = backtestDemand({ histories: cohort, asOf: day, forecast: referenceForecastDemand });
        backtest.months.forEach((month, index) => {
          const expected = referenceBacktest.months[index]!;
          expect([month.actual, month.naive]).toEqual([expected.actual, expected.naive]);
          close(month.forecast, expected.forecast);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('is bit-identical whether cells are summed at once or built, added to and taken from in any order', () => {
    fc.assert(
      fc.property(histories, histories, (kept, changed) => {
        const whole: ForecastCells = new Map();
        for (const history of kept) addHistoryCells(whole, history, asOf);
        // Stored cells of kept + changed, then the changed histories taken out again (a refresh of dirty patients).
        const stored: ForecastCells = new Map();
        for (const history of [...changed].reverse()) addHistoryCells(stored, history, asOf);
        for (const history of [...kept].reverse()) addHistoryCells(stored, history, asOf);
        const taken: ForecastCells = new Map();
        for (const history of changed) addHistoryCells(taken, history, asOf);
        addCells(stored, taken, -1);
        expect(new Map([...stored].sort())).toEqual(new Map([...whole].sort()));
        expect(forecastFromInputs({ inputs: forecastInputsOf(stored), asOf })).toEqual(
          forecastFromInputs({ inputs: forecastInputsOf(whole), asOf }),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('scores the backtest from month counts exactly as backtestDemand does', () => {
    fc.assert(
      fc.property(histories, (cohort) => {
        const cutoff = completeMonthsBefore(asOf, 3)[0]!.start;
        const cells: ForecastCells = new Map();
        const counts = [0, 0, 0, 0, 0, 0];
        for (const history of cohort) {
          addHistoryCells(
            cells,
            history.filter((one: Fill) => one.day < cutoff),
            cutoff,
          );
          for (const one of history) {
            const month = one.day < asOf ? backtestMonthOf(one.day, asOf) : null;
            if (month !== null) counts[month]! += 1;
          }
        }
        const scored = scoreBacktest({
          forecast: forecastFromInputs({ inputs: forecastInputsOf(cells), asOf: cutoff, months: 3 }),
          actual: counts.slice(0, 3),
          naive: counts.slice(3),
          asOf,
        });
        expect(scored).toEqual(backtestDemand({ histories: cohort, asOf }));
      }),
      { numRuns: 100 },
    );
  });
});
