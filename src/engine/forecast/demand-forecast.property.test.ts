import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil } from '../adherence/day-number';
import { computeKaplanMeier } from '../aggregation/kaplan-meier';
import { backtestDemand } from './backtest';
import { forecastDemand } from './demand-forecast';
import { buildSurvivalCurve, type Fill, survivalAt } from './persistence';

const asOf = dayNumberFromCivil(2026, 3, 17);
const fill = fc.record({
  day: fc.integer({ min: asOf - 900, max: asOf + 120 }),
  units: fc.integer({ min: 1, max: 120 }),
  daysSupply: fc.constantFrom(7, 28, 30, 56, 90),
});
const histories = fc.array(fc.array(fill, { maxLength: 25 }), { maxLength: 12 });

describe('demand forecast properties', () => {
  it('the persistence step function equals the Kaplan–Meier module at every time', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ time: fc.integer({ min: 0, max: 60 }), event: fc.boolean() }), { maxLength: 40 }), (subjects) => {
        const curve = buildSurvivalCurve(subjects);
        const times = Array.from({ length: 64 }, (_, index) => index);
        const reference = computeKaplanMeier(subjects, times);
        times.forEach((time, index) => expect(survivalAt(curve, time)).toBeCloseTo(reference[index]!.survival, 12));
      }),
    );
  });

  it('figures are finite, non-negative, inside their interval, and blind to fills on or after the as-of day', () => {
    fc.assert(
      fc.property(histories, (cohort) => {
        const forecast = forecastDemand({ histories: cohort, asOf });
        for (const month of forecast.months) {
          for (const value of Object.values(month)) if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
          expect(month.fillsLow).toBeGreaterThanOrEqual(0);
          expect(month.fillsLow).toBeLessThanOrEqual(month.expectedFills + 1e-9);
          expect(month.expectedFills).toBeLessThanOrEqual(month.fillsHigh + 1e-9);
          expect(month.unitsLow).toBeLessThanOrEqual(month.expectedUnits + 1e-9);
          expect(month.expectedUnits).toBeLessThanOrEqual(month.unitsHigh + 1e-9);
          expect(month.fillsFromStarts).toBeLessThanOrEqual(month.expectedFills + 1e-9);
        }
        const past = cohort.map((history: Fill[]) => history.filter((entry) => entry.day < asOf));
        expect(forecastDemand({ histories: past, asOf })).toEqual(forecast);
      }),
      { numRuns: 60 },
    );
  });

  it('the backtest forecast and baseline depend only on fills before the held-out months', () => {
    const cutoff = dayNumberFromCivil(2025, 12, 1); // held out: December–February before asOf
    fc.assert(
      fc.property(histories, histories, (cohort, extra) => {
        const heldOutOnly = extra.map((history) => history.map((entry) => ({ ...entry, day: cutoff + (Math.abs(entry.day) % 90) })));
        const before = backtestDemand({ histories: cohort, asOf });
        const after = backtestDemand({ histories: [...cohort, ...heldOutOnly], asOf });
        expect(after.months.map((month) => [month.forecast, month.naive])).toEqual(
          before.months.map((month) => [month.forecast, month.naive]),
        );
      }),
      { numRuns: 40 },
    );
  });
});
