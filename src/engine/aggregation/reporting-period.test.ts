import { describe, expect, it } from 'vitest';
import { dayNumberFromIso as day, isoFromDayNumber as iso } from '@/engine/adherence/day-number';
import { addMonths, asOfDay, DEFAULT_PERIOD_CHOICE, lookbackStart, resolvePeriod } from './reporting-period';

const dates = (period: { start: number; end: number }) => [iso(period.start), iso(period.end - 1)];

describe('the as-of date', () => {
  it('is the latest day of data, never after today', () => {
    expect(asOfDay({ latestData: day('2025-12-31'), today: day('2026-11-24') })).toBe(day('2025-12-31'));
    // Rows dated in the future (a bad import) cannot move it past today.
    expect(asOfDay({ latestData: day('2037-01-01'), today: day('2026-11-24') })).toBe(day('2026-11-24'));
    expect(asOfDay({ latestData: null, today: day('2026-11-24') })).toBe(day('2026-11-24'));
  });
});

describe('the period of a choice', () => {
  const asOf = day('2025-12-31');

  it('is by default the 12 months ending on the as-of date', () => {
    const period = resolvePeriod({ choice: DEFAULT_PERIOD_CHOICE, asOf });
    expect(dates(period)).toEqual(['2025-01-01', '2025-12-31']);
    expect(period).toMatchObject({ asOf, notice: null, choice: DEFAULT_PERIOD_CHOICE });
    expect(lookbackStart(period)).toBe(day('2025-01-01') - 365);
  });

  it('gives the last 3 and 6 months, ending on the as-of date and never after it', () => {
    expect(dates(resolvePeriod({ choice: { kind: 'last-months', months: 3 }, asOf }))).toEqual(['2025-10-01', '2025-12-31']);
    expect(dates(resolvePeriod({ choice: { kind: 'last-months', months: 6 }, asOf }))).toEqual(['2025-07-01', '2025-12-31']);
    // Month ends are clamped: the 3 months to 30 May start on 1 March (31 May − 3 months = 28/29 February + 1 day is not used).
    expect(dates(resolvePeriod({ choice: { kind: 'last-months', months: 3 }, asOf: day('2026-05-30') }))).toEqual([
      '2026-02-28',
      '2026-05-30',
    ]);
    for (const months of [3, 6, 12] as const) {
      for (const end of ['2024-02-29', '2025-03-31', '2026-11-24']) {
        const period = resolvePeriod({ choice: { kind: 'last-months', months }, asOf: day(end) });
        expect(period.end - 1).toBe(day(end));
        expect(period.start).toBeLessThan(period.end);
      }
    }
  });

  it('gives a calendar year, cut at the as-of date, and falls back to the default for a year after the data', () => {
    expect(dates(resolvePeriod({ choice: { kind: 'calendar-year', year: 2024 }, asOf }))).toEqual(['2024-01-01', '2024-12-31']);
    const current = resolvePeriod({ choice: { kind: 'calendar-year', year: 2025 }, asOf: day('2025-09-30') });
    expect(dates(current)).toEqual(['2025-01-01', '2025-09-30']);
    expect(current.notice).toMatch(/^period: 2025 is cut at 2025-09-30/);
    const future = resolvePeriod({ choice: { kind: 'calendar-year', year: 2026 }, asOf });
    expect(dates(future)).toEqual(['2025-01-01', '2025-12-31']);
    expect(future.choice).toEqual(DEFAULT_PERIOD_CHOICE);
    expect(future.notice).toMatch(/^period: 2026 begins after the data.*last 12 months instead/);
  });

  it('gives a custom from–to, never past the data', () => {
    const inside = resolvePeriod({ choice: { kind: 'custom', from: day('2025-02-01'), to: day('2025-02-28') }, asOf });
    expect(dates(inside)).toEqual(['2025-02-01', '2025-02-28']);
    expect(inside.notice).toBeNull();
    const beyond = resolvePeriod({ choice: { kind: 'custom', from: day('2025-06-01'), to: day('2026-06-30') }, asOf });
    expect(dates(beyond)).toEqual(['2025-06-01', '2025-12-31']);
    expect(beyond.notice).toMatch(/^to: cut at 2025-12-31/);
    const after = resolvePeriod({ choice: { kind: 'custom', from: day('2026-01-01'), to: day('2026-02-01') }, asOf });
    expect(dates(after)).toEqual(['2025-01-01', '2025-12-31']);
    expect(after.notice).toMatch(/^from: 2026-01-01 is after the data/);
  });
});

describe('addMonths', () => {
  it('moves by calendar months, clamping the day', () => {
    expect(iso(addMonths(day('2026-01-01'), -12))).toBe('2025-01-01');
    expect(iso(addMonths(day('2026-03-31'), -1))).toBe('2026-02-28');
    expect(iso(addMonths(day('2024-03-31'), -1))).toBe('2024-02-29');
    expect(iso(addMonths(day('2025-11-30'), 3))).toBe('2026-02-28');
  });
});
