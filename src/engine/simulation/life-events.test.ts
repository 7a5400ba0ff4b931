import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawLifeEvents, lifeEventEffects } from './life-events';
import { createRandomStream } from './random';

describe('drawLifeEvents', () => {
  it('returns ordered, non-overlapping events of allowed lengths inside the run', () => {
    fc.assert(
      fc.property(fc.nat(), fc.double({ min: 0.1, max: 12, noNaN: true }), fc.integer({ min: 1, max: 1000 }), (seed, perYear, days) => {
        const events = drawLifeEvents(createRandomStream(seed, 0, 'profile'), perYear, days);
        let previousEnd = 0;
        for (const event of events) {
          const effect = lifeEventEffects[event.kind];
          expect(event.effect).toBe(effect);
          expect(event.startIndex).toBeGreaterThanOrEqual(previousEnd);
          expect(event.startIndex).toBeLessThan(days);
          expect(event.endIndex - event.startIndex).toBeGreaterThanOrEqual(effect.minimumDays);
          expect(event.endIndex - event.startIndex).toBeLessThanOrEqual(effect.maximumDays);
          if (event.kind !== 'routine-change') expect(event.routineShiftMinutes).toBe(0);
          previousEnd = event.endIndex;
        }
      }),
    );
  });

  it('arrives at about the requested rate', () => {
    let total = 0;
    for (let patient = 0; patient < 2000; patient += 1) total += drawLifeEvents(createRandomStream(1, patient, 'profile'), 3, 365).length;
    // Events last days to weeks and do not overlap, so slightly fewer than 3 fit in a year.
    expect(total / 2000).toBeGreaterThan(2.4);
    expect(total / 2000).toBeLessThan(3.1);
  });
});
