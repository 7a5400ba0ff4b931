/**
 * Life events disturb the routine for a while: travel, an illness, a stressful period (bereavement,
 * job loss), or a change of routine (new job, shifts) that moves the usual dose time for good.
 * Frequencies and effects are modelling assumptions; they add the day-to-day variation that makes
 * adherence drift down and lapse in bursts rather than evenly (Naderi 2012 describes such decline).
 */
import { nextInteger, nextUniform, nextWeightedIndex, type RandomStream } from './random';

export const lifeEventKinds = ['travel', 'illness', 'stressful-period', 'routine-change'] as const;
export type LifeEventKind = (typeof lifeEventKinds)[number];

export type LifeEventEffect = {
  /** Relative frequency among life events. */
  weight: number;
  minimumDays: number;
  maximumDays: number;
  /** Multiplier on the chance of forgetting a dose while it lasts. */
  forgetMultiplier: number;
  /** Multiplier on the chance of deliberately skipping. */
  skipMultiplier: number;
  /** Multiplier on the chance of stopping therapy. */
  stopMultiplier: number;
  /** Multiplier on the chance of collecting a due refill on a given day (away from the pharmacy). */
  refillMultiplier: number;
};

export const lifeEventEffects: Readonly<Record<LifeEventKind, LifeEventEffect>> = {
  travel: {
    weight: 4,
    minimumDays: 3,
    maximumDays: 14,
    forgetMultiplier: 2.5,
    skipMultiplier: 1,
    stopMultiplier: 1,
    refillMultiplier: 0.2,
  },
  illness: {
    weight: 3,
    minimumDays: 3,
    maximumDays: 10,
    forgetMultiplier: 1.5,
    skipMultiplier: 2,
    stopMultiplier: 1.5,
    refillMultiplier: 0.5,
  },
  'stressful-period': {
    weight: 2,
    minimumDays: 14,
    maximumDays: 45,
    forgetMultiplier: 2,
    skipMultiplier: 1.5,
    stopMultiplier: 3,
    refillMultiplier: 0.6,
  },
  'routine-change': {
    weight: 1,
    minimumDays: 14,
    maximumDays: 21,
    forgetMultiplier: 2,
    skipMultiplier: 1,
    stopMultiplier: 1,
    refillMultiplier: 1,
  },
};

export type LifeEvent = {
  kind: LifeEventKind;
  effect: LifeEventEffect;
  /** Day index within the simulation (0 = first simulated day). */
  startIndex: number;
  /** Day index after the last affected day. */
  endIndex: number;
  /** For routine changes: minutes the weekday morning dose moves, from `startIndex` on. */
  routineShiftMinutes: number;
};

const weights = lifeEventKinds.map((kind) => lifeEventEffects[kind].weight);

/** A patient's life events over `days` days, in order and not overlapping (Poisson arrivals). */
export function drawLifeEvents(stream: RandomStream, eventsPerYear: number, days: number): LifeEvent[] {
  const events: LifeEvent[] = [];
  const dailyRate = eventsPerYear / 365;
  let dayIndex = Math.floor(-Math.log(1 - nextUniform(stream)) / dailyRate);
  while (dayIndex < days) {
    const kind = lifeEventKinds[nextWeightedIndex(stream, weights)] ?? 'travel';
    const effect = lifeEventEffects[kind];
    const duration = nextInteger(stream, effect.minimumDays, effect.maximumDays);
    const routineShiftMinutes = kind === 'routine-change' ? nextInteger(stream, -4, 8) * 15 : 0;
    events.push({ kind, effect, startIndex: dayIndex, endIndex: dayIndex + duration, routineShiftMinutes });
    dayIndex += duration + Math.floor(-Math.log(1 - nextUniform(stream)) / dailyRate);
  }
  return events;
}
