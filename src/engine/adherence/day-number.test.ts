import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCalendarMonths, civilFromDayNumber, dayNumberFromCivil, dayNumberFromIso, isoFromDayNumber, isValidCivil } from './day-number';

describe('day numbers', () => {
  it('agree with Date.UTC over four centuries', () => {
    fc.assert(
      fc.property(fc.integer({ min: -150_000, max: 150_000 }), (dayNumber) => {
        const date = new Date(dayNumber * 86_400_000);
        expect(civilFromDayNumber(dayNumber)).toEqual({
          year: date.getUTCFullYear(),
          month: date.getUTCMonth() + 1,
          day: date.getUTCDate(),
        });
        expect(dayNumberFromCivil(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate())).toBe(dayNumber);
      }),
    );
  });

  it('format ISO dates and validate civil dates', () => {
    expect(isoFromDayNumber(0)).toBe('1970-01-01');
    expect(isoFromDayNumber(dayNumberFromCivil(2033, 4, 26))).toBe('2033-04-26');
    expect(isValidCivil(2024, 2, 29)).toBe(true);
    expect(isValidCivil(2023, 2, 29)).toBe(false);
    expect(isValidCivil(2100, 2, 29)).toBe(false);
    expect(isValidCivil(2023, 13, 1)).toBe(false);
  });

  it('add calendar months rolling a missing day forward to the 1st of the next month, as AdhereR does', () => {
    expect(isoFromDayNumber(addCalendarMonths(dayNumberFromCivil(2021, 1, 31), 1))).toBe('2021-03-01');
    expect(isoFromDayNumber(addCalendarMonths(dayNumberFromCivil(2020, 2, 29), 12))).toBe('2021-03-01');
    expect(isoFromDayNumber(addCalendarMonths(dayNumberFromCivil(2020, 11, 15), 3))).toBe('2021-02-15');
    expect(isoFromDayNumber(addCalendarMonths(dayNumberFromCivil(2021, 3, 31), -1))).toBe('2021-03-01');
  });
});

describe('dayNumberFromIso', () => {
  it('inverts isoFromDayNumber, including leap days and dates before 1970', () => {
    for (const iso of ['1970-01-01', '2024-02-29', '1899-12-31', '2026-11-22']) {
      expect(isoFromDayNumber(dayNumberFromIso(iso))).toBe(iso);
    }
    expect(dayNumberFromIso('1970-01-02')).toBe(1);
    expect(dayNumberFromIso('2026-11-22T08:00:00Z')).toBe(dayNumberFromIso('2026-11-22'));
  });
});
