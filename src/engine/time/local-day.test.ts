import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import { createLocalDayResolver, createLocalTimeConverter, localDayNumber, utcDayNumber } from './local-day';

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

describe('createLocalTimeConverter', () => {
  const toEpochSeconds = createLocalTimeConverter();

  it('applies the offset in force: GMT in winter, BST in summer', () => {
    expect(iso(toEpochSeconds('Europe/London', dayNumberFromCivil(2025, 1, 15), 8 * 60))).toBe('2025-01-15T08:00:00.000Z');
    expect(iso(toEpochSeconds('Europe/London', dayNumberFromCivil(2025, 7, 15), 8 * 60))).toBe('2025-07-15T07:00:00.000Z');
    expect(iso(toEpochSeconds('America/New_York', dayNumberFromCivil(2025, 1, 15), 20 * 60 + 30))).toBe('2025-01-16T01:30:00.000Z');
    expect(iso(toEpochSeconds('Asia/Kolkata', dayNumberFromCivil(2025, 1, 15), 0))).toBe('2025-01-14T18:30:00.000Z');
  });

  it('is exact on the days the clocks change', () => {
    // 30 March 2025: London springs forward at 01:00 GMT; 26 October: falls back at 01:00 GMT.
    const spring = dayNumberFromCivil(2025, 3, 30);
    expect(iso(toEpochSeconds('Europe/London', spring, 0 * 60 + 30))).toBe('2025-03-30T00:30:00.000Z');
    expect(iso(toEpochSeconds('Europe/London', spring, 8 * 60))).toBe('2025-03-30T07:00:00.000Z');
    const autumn = dayNumberFromCivil(2025, 10, 26);
    expect(iso(toEpochSeconds('Europe/London', autumn, 0 * 60 + 30))).toBe('2025-10-25T23:30:00.000Z');
    expect(iso(toEpochSeconds('Europe/London', autumn, 8 * 60))).toBe('2025-10-26T08:00:00.000Z');
  });
});

describe('createLocalDayResolver', () => {
  const localDay = createLocalDayResolver();

  it('gives the calendar day in the zone, which may differ from the UTC day', () => {
    const instant = new Date('2026-02-27T23:30:00Z');
    expect(localDay(instant, 'UTC')).toBe(dayNumberFromCivil(2026, 2, 27));
    expect(localDay(instant, 'Europe/Berlin')).toBe(dayNumberFromCivil(2026, 2, 28));
    expect(localDay(new Date('2026-02-28T03:00:00Z'), 'America/Los_Angeles')).toBe(dayNumberFromCivil(2026, 2, 27));
    expect(localDay(new Date('2026-02-27T12:00:00Z'), 'Pacific/Kiritimati')).toBe(dayNumberFromCivil(2026, 2, 28));
  });

  it('follows daylight saving: 23:30 UTC is the next day in London in summer only', () => {
    expect(localDay(new Date('2025-07-15T23:30:00Z'), 'Europe/London')).toBe(dayNumberFromCivil(2025, 7, 16));
    expect(localDay(new Date('2025-01-15T23:30:00Z'), 'Europe/London')).toBe(dayNumberFromCivil(2025, 1, 15));
  });

  it('reads no zone, an empty one or an unknown one as UTC', () => {
    const instant = new Date('2026-02-27T23:30:00Z');
    const utc = dayNumberFromCivil(2026, 2, 27);
    expect(localDay(instant, null)).toBe(utc);
    expect(localDay(instant, '')).toBe(utc);
    expect(localDay(instant, 'Mars/Olympus_Mons')).toBe(utc);
    expect(utcDayNumber(instant)).toBe(utc);
    expect(localDayNumber(instant, 'Asia/Tokyo')).toBe(utc + 1);
  });

  it('is the inverse of the local-time converter', () => {
    const toEpochSeconds = createLocalTimeConverter();
    for (const zone of ['Europe/London', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney']) {
      for (const day of [dayNumberFromCivil(2025, 3, 30), dayNumberFromCivil(2025, 10, 26), dayNumberFromCivil(2026, 1, 1)]) {
        for (const minute of [0, 30, 8 * 60, 23 * 60 + 59]) {
          expect(localDay(new Date(toEpochSeconds(zone, day, minute) * 1000), zone)).toBe(day);
        }
      }
    }
  });
});
