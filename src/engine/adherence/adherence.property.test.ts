/** Invariants of the CMAs, episodes and windows on random patients (fast-check). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCmaPerEpisode } from './cma-per-episode';
import { runGapModel } from './gap-model';
import type { MedicationEvent } from './medication-event';
import { computePdc } from './pdc';
import { CMA_TYPES, DEFAULT_CMA_SETTINGS, computeCma, eventsInFollowUp, type CmaSettings } from './simple-cma';
import { computeSlidingWindowCma } from './sliding-window-cma';
import { computeTreatmentEpisodes, DEFAULT_EPISODE_SETTINGS } from './treatment-episodes';
import { computePatientWindows } from './windows';

const FIRST_DAY = 20_000;

const eventArbitrary = fc.record({
  day: fc.integer({ min: FIRST_DAY, max: FIRST_DAY + 800 }),
  duration: fc.integer({ min: 0, max: 120 }),
  dose: fc.constantFrom(1, 2, 4),
  medicationClass: fc.constantFrom('A', 'B'),
});

/** A patient whose first event is on FIRST_DAY (so windows do not move when events are added later). */
const patientArbitrary = fc
  .array(eventArbitrary, { minLength: 0, maxLength: 14 })
  .map((events): MedicationEvent[] => [{ day: FIRST_DAY, duration: 30, dose: 2, medicationClass: 'A' }, ...events]);

const settingsArbitrary = fc
  .record({
    observationStart: fc.integer({ min: 0, max: 500 }),
    observationLength: fc.integer({ min: 1, max: 730 }),
    carryOnlyForSameMedication: fc.boolean(),
    considerDosageChange: fc.boolean(),
  })
  .map(({ observationStart, observationLength, ...rules }): CmaSettings => ({
    ...DEFAULT_CMA_SETTINGS,
    ...rules,
    observationStart,
    observationDuration: Math.min(observationLength, 730 - observationStart),
  }));

const pooledSettingsArbitrary = settingsArbitrary.map((settings) => ({
  ...settings,
  carryOnlyForSameMedication: false,
  considerDosageChange: false,
}));

/** Sorted by day with distinct days, so that any reordering of the rows is a pure permutation. */
const distinctDayPatientArbitrary = patientArbitrary.map((events) => {
  const seen = new Set<number>();
  return events.filter((event) => (seen.has(event.day) ? false : (seen.add(event.day), true)));
});

describe('CMA invariants', () => {
  it('capped CMAs (CMA3–CMA9) lie in [0, 1]; CMA3/CMA4 are CMA1/CMA2 capped', () => {
    fc.assert(
      fc.property(patientArbitrary, settingsArbitrary, (events, settings) => {
        for (const type of ['CMA3', 'CMA4', 'CMA5', 'CMA6', 'CMA7', 'CMA8', 'CMA9'] as const) {
          const value = computeCma(type, events, settings);
          if (value === null) continue;
          expect(value, type).toBeGreaterThanOrEqual(-1e-12);
          expect(value, type).toBeLessThanOrEqual(1 + 1e-12);
        }
        const cma1 = computeCma('CMA1', events, settings);
        expect(computeCma('CMA3', events, settings)).toBe(cma1 === null ? null : Math.min(1, cma1));
        const cma2 = computeCma('CMA2', events, settings);
        expect(computeCma('CMA4', events, settings)).toBe(cma2 === null ? null : Math.min(1, cma2));
      }),
    );
  });

  it('CMA2/CMA4 whose only event sits on the window end: Inf with supply (as R), undefined for 0/0', () => {
    // fast-check found the 0/0 case: R's NaN had come out as NaN, which CMA4's [0, 1] check rejected.
    const settings: CmaSettings = { ...DEFAULT_CMA_SETTINGS, observationStart: 4, observationDuration: 2 };
    const onWindowEnd = (duration: number): MedicationEvent[] => [
      { day: FIRST_DAY, duration: 30, dose: 2, medicationClass: 'A' },
      { day: FIRST_DAY + 6, duration, dose: 1, medicationClass: 'A' },
    ];
    expect(computeCma('CMA2', onWindowEnd(0), settings)).toBeNull();
    expect(computeCma('CMA4', onWindowEnd(0), settings)).toBeNull();
    expect(computeCma('CMA6', onWindowEnd(0), settings)).toBeNull();
    expect(computeCma('CMA2', onWindowEnd(10), settings)).toBe(Infinity);
    expect(computeCma('CMA4', onWindowEnd(10), settings)).toBe(1);
  });

  it('gaps, carry-over and intervals are never negative', () => {
    fc.assert(
      fc.property(patientArbitrary, fc.boolean(), fc.boolean(), (events, carryOnlyForSameMedication, considerDosageChange) => {
        const sorted = [...events].sort((left, right) => left.day - right.day);
        const windowEnd = FIRST_DAY + 730;
        const inWindow = sorted.filter((event) => event.day <= windowEnd);
        const model = runGapModel(inWindow, 0, inWindow.length, windowEnd, { carryOnlyForSameMedication, considerDosageChange });
        for (const values of [model.gaps, model.carriesIn, model.intervals])
          for (const value of values) expect(value).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('the row order of the input does not change any result', () => {
    fc.assert(
      fc.property(distinctDayPatientArbitrary, settingsArbitrary, fc.nat(), (events, settings, seed) => {
        const shuffled = events
          .map((event, index) => ({ event, key: (index * 2654435761 + seed) % 4294967296 }))
          .sort((left, right) => left.key - right.key);
        const reordered = shuffled.map(({ event }) => event);
        for (const type of CMA_TYPES) expect(computeCma(type, reordered, settings), type).toBe(computeCma(type, events, settings));
        const rules = {
          maximumPermissibleGap: 60,
          maximumPermissibleGapUnit: 'days',
          appendMaximumGapToEpisode: false,
          medicationChangeMeansNewEpisode: true,
        } as const;
        expect(computeCmaPerEpisode('CMA9', reordered, settings, rules)).toEqual(computeCmaPerEpisode('CMA9', events, settings, rules));
      }),
    );
  });

  it('with pooled carry-over, reordering same-day events changes no CMA5–CMA9', () => {
    fc.assert(
      fc.property(patientArbitrary, pooledSettingsArbitrary, (events, settings) => {
        const reversed = [...events].reverse();
        for (const type of ['CMA5', 'CMA6', 'CMA7', 'CMA8', 'CMA9'] as const) {
          const expected = computeCma(type, events, settings);
          const actual = computeCma(type, reversed, settings);
          if (expected === null) expect(actual).toBeNull();
          else expect(Math.abs((actual ?? NaN) - expected)).toBeLessThanOrEqual(1e-12);
        }
      }),
    );
  });

  it('adding a fill never lowers CMA7 (pooled carry-over)', () => {
    fc.assert(
      fc.property(patientArbitrary, eventArbitrary, pooledSettingsArbitrary, (events, extra, settings) => {
        const before = computeCma('CMA7', events, settings);
        const after = computeCma('CMA7', [...events, extra], settings);
        if (before !== null) expect(after ?? NaN).toBeGreaterThanOrEqual(before - 1e-12);
      }),
    );
  });

  it('CMA7 is the single-drug PDC of the observation window with supply carried in', () => {
    fc.assert(
      fc.property(patientArbitrary, pooledSettingsArbitrary, (events, settings) => {
        const windows = computePatientWindows(FIRST_DAY, settings);
        const fills = eventsInFollowUp(
          [...events].sort((left, right) => left.day - right.day),
          windows,
        ).map((event) => ({ day: event.day, daysSupply: event.duration, drug: 'one' }));
        const pdc = computePdc({ fills, periodStart: windows.observationStart, periodEnd: windows.observationEnd }).pdc;
        expect(Math.abs((computeCma('CMA7', events, settings) ?? NaN) - pdc)).toBeLessThanOrEqual(1e-12);
      }),
    );
  });
});

describe('episode and window invariants', () => {
  it('episodes are ordered, do not overlap and lie in the follow-up window', () => {
    fc.assert(
      fc.property(
        patientArbitrary,
        fc.integer({ min: 0, max: 200 }),
        fc.boolean(),
        (events, maximumPermissibleGap, medicationChangeMeansNewEpisode) => {
          const sorted = [...events].sort((left, right) => left.day - right.day);
          const windows = computePatientWindows(FIRST_DAY, DEFAULT_CMA_SETTINGS);
          const episodes = computeTreatmentEpisodes(eventsInFollowUp(sorted, windows), windows, {
            ...DEFAULT_EPISODE_SETTINGS,
            maximumPermissibleGap,
            medicationChangeMeansNewEpisode,
          });
          expect(episodes.length).toBeGreaterThan(0);
          expect(episodes[0]!.start).toBe(FIRST_DAY);
          episodes.forEach((episode, index) => {
            expect(episode.episode).toBe(index + 1);
            expect(episode.end).toBeGreaterThanOrEqual(episode.start);
            expect(episode.end).toBeLessThanOrEqual(windows.followUpEnd);
            expect(episode.endGapDays).toBeGreaterThanOrEqual(0);
            const next = episodes[index + 1];
            if (next) expect(next.start).toBeGreaterThanOrEqual(episode.end);
          });
        },
      ),
    );
  });

  it('sliding windows have the requested length and step and fit in the observation window', () => {
    fc.assert(
      fc.property(patientArbitrary, fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }), (events, duration, step) => {
        const windows = computeSlidingWindowCma('CMA9', events, DEFAULT_CMA_SETTINGS, { start: 0, duration, step });
        expect(windows.length).toBe(Math.floor((730 - duration) / step) + 1);
        windows.forEach((window, index) => {
          expect(window.start).toBe(FIRST_DAY + index * step);
          expect(window.end - window.start).toBe(duration);
          expect(window.end).toBeLessThanOrEqual(FIRST_DAY + 730);
          expect(window.value).not.toBeNull();
        });
      }),
    );
  });
});
