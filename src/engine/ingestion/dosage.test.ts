import { describe, expect, it } from 'vitest';
import { dosesPerDayOfDosages, dosesPerDayOfTiming, doseTimesOfDosages, durationInDays, supplyDaysOfQuantity } from './dosage';

describe('dosage', () => {
  it('reads doses a day from frequency and period, times of day, and timing codes', () => {
    expect(dosesPerDayOfTiming({ repeat: { frequency: 2, period: 1, periodUnit: 'd' } })).toBe(2);
    expect(dosesPerDayOfTiming({ repeat: { frequency: 1, period: 4, periodUnit: 'h' } })).toBe(6);
    expect(dosesPerDayOfTiming({ repeat: { frequency: 1, period: 1, periodUnit: 'wk' } })).toBeCloseTo(1 / 7);
    expect(dosesPerDayOfTiming({ repeat: { period: 1, periodUnit: 'd', dayOfWeek: ['mon', 'thu'] } })).toBeCloseTo(2 / 7);
    expect(dosesPerDayOfTiming({ repeat: { timeOfDay: ['08:00:00', '20:00:00'] } })).toBe(2);
    expect(dosesPerDayOfTiming({ repeat: { when: ['MORN', 'EVE', 'NIGHT'] } })).toBe(3);
    expect(dosesPerDayOfTiming({ code: { coding: [{ code: 'TID' }] } })).toBe(3);
    expect(dosesPerDayOfTiming({ code: { coding: [{ code: 'qod' }] } })).toBe(0.5);
    expect(dosesPerDayOfTiming({})).toBeNull();
    expect(dosesPerDayOfTiming(undefined)).toBeNull();
  });

  it('adds concurrent dosage lines (same sequence) and ignores later ones (a taper)', () => {
    const morning = { sequence: 1, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', timeOfDay: ['08:00:00'] } } };
    const evening = { sequence: 1, timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', timeOfDay: ['20:00:00'] } } };
    const later = { sequence: 2, timing: { repeat: { frequency: 4, period: 1, periodUnit: 'd' } } };
    expect(dosesPerDayOfDosages([morning, evening, later])).toBe(2);
    expect(doseTimesOfDosages([evening, morning, later])).toEqual(['08:00', '20:00']);
    expect(dosesPerDayOfDosages([{ asNeededBoolean: true, text: 'Take as needed.' }])).toBeNull();
  });

  it('converts durations to days and derives a supply from quantity and dose', () => {
    expect(durationInDays({ value: 3, unit: 'Day', system: 'http://unitsofmeasure.org', code: 'd' })).toBe(3);
    expect(durationInDays({ value: 2, unit: 'weeks' })).toBe(14);
    expect(durationInDays({ value: 30 })).toBe(30);
    expect(durationInDays({ value: 30, unit: 'TAB' })).toBeNull();
    const twiceDaily = [
      {
        timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } },
        doseAndRate: [{ doseQuantity: { value: 10, unit: 'ml', code: 'mL' } }],
      },
    ];
    expect(supplyDaysOfQuantity({ value: 480, unit: 'mL', code: 'mL' }, twiceDaily)).toBe(24);
    expect(supplyDaysOfQuantity({ value: 480, unit: 'TAB', code: 'TAB' }, twiceDaily)).toBeNull();
    expect(supplyDaysOfQuantity({ value: 480 }, [{ timing: { repeat: { frequency: 2, period: 1, periodUnit: 'd' } } }])).toBeNull();
  });
});
