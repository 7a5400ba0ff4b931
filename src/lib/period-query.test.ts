import { describe, expect, it } from 'vitest';
import { dayNumberFromIso as day } from '@/engine/adherence/day-number';
import { DEFAULT_PERIOD_CHOICE } from '@/engine/aggregation/reporting-period';
import { hrefWithPeriod, parsePeriodQuery, periodQueryOf } from './period-query';

describe('the period in the address', () => {
  it('reads the presets, a calendar year and a custom from–to', () => {
    expect(parsePeriodQuery({})).toEqual({ choice: DEFAULT_PERIOD_CHOICE, problem: null });
    expect(parsePeriodQuery({ period: 'last-3-months', from: '', to: '' }).choice).toEqual({ kind: 'last-months', months: 3 });
    expect(parsePeriodQuery({ period: 'last-6-months' }).choice).toEqual({ kind: 'last-months', months: 6 });
    expect(parsePeriodQuery({ period: 'year-2025' }).choice).toEqual({ kind: 'calendar-year', year: 2025 });
    expect(parsePeriodQuery({ period: 'custom', from: '2025-01-01', to: '2025-06-30' }).choice).toEqual({
      kind: 'custom',
      from: day('2025-01-01'),
      to: day('2025-06-30'),
    });
  });

  it('names every field at fault and uses the default', () => {
    const both = parsePeriodQuery({ period: 'custom', from: '2025-02-30', to: 'soon' });
    expect(both.choice).toEqual(DEFAULT_PERIOD_CHOICE);
    expect(both.problem).toMatch(/from: give a date as YYYY-MM-DD.*to: give a date as YYYY-MM-DD.*Showing the last 12 months/);
    expect(parsePeriodQuery({ period: 'custom', from: '2025-06-30', to: '2025-01-01' }).problem).toMatch(/to: must be on or after from/);
    expect(parsePeriodQuery({ period: 'custom', from: '1990-01-01', to: '2025-01-01' }).problem).toMatch(/to: .*ten years/);
    expect(parsePeriodQuery({ period: 'last-4-months' }).problem).toMatch(/period: choose last-3-months/);
    expect(parsePeriodQuery({ period: ['last-3-months', 'last-6-months'] }).problem).toMatch(/period: period must be given once/);
    expect(parsePeriodQuery({ period: 'year-1066' }).problem).toMatch(/period: the year must be 1900 or later/);
  });

  it('writes a choice back as the same parameters, so links carry it', () => {
    for (const query of [
      { period: 'last-3-months' },
      { period: 'year-2024' },
      { period: 'custom', from: '2025-01-01', to: '2025-03-31' },
    ]) {
      expect(periodQueryOf(parsePeriodQuery(query).choice)).toEqual(query);
    }
    expect(periodQueryOf(DEFAULT_PERIOD_CHOICE)).toEqual({});
    expect(hrefWithPeriod('/x', { kind: 'last-months', months: 3 }, { persona: 'a', product: null })).toBe(
      '/x?persona=a&period=last-3-months',
    );
    expect(hrefWithPeriod('/x', DEFAULT_PERIOD_CHOICE)).toBe('/x');
  });
});
