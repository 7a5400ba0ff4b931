import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import { createLocalTimeConverter } from './local-time';

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
