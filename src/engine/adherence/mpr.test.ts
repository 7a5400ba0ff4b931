import { describe, expect, it } from 'vitest';
import type { MedicationEvent } from './medication-event';
import { computeMpr } from './mpr';
import { DEFAULT_CMA_SETTINGS, computeCma } from './simple-cma';
import { groupBy, readMedicationEvents } from './test-support/reference-files';

const event = (day: number, duration: number): MedicationEvent => ({ day, duration, dose: 1, medicationClass: 'A' });
const settings = { ...DEFAULT_CMA_SETTINGS, observationStart: 0, observationDuration: 100 };

describe('MPR', () => {
  // An early refill: three 30-day fills in 40 days.
  const events = [event(0, 30), event(20, 30), event(40, 30)];

  it('refill-interval form: supply before the last fill over first-to-last fill (can exceed 1)', () => {
    expect(computeMpr(events, settings, { form: 'refill-interval' })).toBe(60 / 40);
    expect(computeMpr(events, settings, { form: 'refill-interval', capped: true })).toBe(1);
  });

  it('to-window-end form: all supply over first fill to the window end', () => {
    expect(computeMpr(events, settings, { form: 'to-window-end' })).toBe(90 / 100);
  });

  it('fixed-period form: supply in the window over its length; 0 without fills in it', () => {
    expect(computeMpr([...events, event(150, 30)], settings, { form: 'fixed-period' })).toBe(90 / 100);
    expect(computeMpr([event(0, 30)], { ...settings, observationStart: 200 }, { form: 'fixed-period' })).toBe(0);
    expect(computeMpr([event(0, 30)], settings, { form: 'refill-interval' })).toBeNull();
  });

  it('equals CMA1/CMA2 and CMA2 × (window end − first fill) / window length on med.events', () => {
    const vignette = { ...DEFAULT_CMA_SETTINGS, observationStart: 182, observationDuration: 365 };
    for (const patientEvents of groupBy(readMedicationEvents(), (row) => row.patientId).values()) {
      expect(computeMpr(patientEvents, vignette, { form: 'refill-interval' })).toBe(computeCma('CMA1', patientEvents, vignette));
      const cma2 = computeCma('CMA2', patientEvents, vignette);
      expect(computeMpr(patientEvents, vignette, { form: 'to-window-end' })).toBe(cma2);
      const firstInWindow = patientEvents
        .map((row) => row.day)
        .filter((day) => day >= patientEvents[0]!.day + 182)
        .sort((a, b) => a - b)[0];
      const fixed = computeMpr(patientEvents, vignette, { form: 'fixed-period' });
      if (cma2 === null || firstInWindow === undefined) expect(fixed).toBe(0);
      else expect(fixed).toBeCloseTo((cma2 * (patientEvents[0]!.day + 547 - firstInWindow)) / 365, 12);
    }
  });
});
