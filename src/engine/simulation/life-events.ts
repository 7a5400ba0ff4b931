/**
 * Life events disturb the routine for a while: travel, an illness, a stressful period (bereavement,
 * job loss), or a change of routine (new job, shifts) that moves the usual dose time for good.
 * Frequencies and effects are modelling assumptions (judgements, not literature figures); they add the
 * day-to-day variation that makes adherence lapse in bursts rather than evenly, and they are what makes a
 * patient whose persona gives no reason to stop (an engaged self-manager, a forgetful older adult) stop:
 * an illness (a hospital stay, side effects) or a stressful period. The chances of stopping are ours:
 * about one engaged self-manager in ten stops around a life event within a year.
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
  /**
   * Chance per month, while the event lasts, of stopping the medicines altogether (added to the persona's
   * own chance). Life events are the only reason some personas stop (see `PersonaParameters`).
   */
  monthlyStopProbability: number;
  /** The same per day (derived). */
  dailyStopProbability: number;
  /** Multiplier on the chance of collecting a due refill on a given day (away from the pharmacy). */
  refillMultiplier: number;
};

/** A chance per month as a chance per day (the same chance over a month of 365/12 days). */
export function dailyFromMonthly(monthlyProbability: number): number {
  return 1 - (1 - monthlyProbability) ** (12 / 365);
}

const withDailyStop = (effect: Omit<LifeEventEffect, 'dailyStopProbability'>): LifeEventEffect => ({
  ...effect,
  dailyStopProbability: dailyFromMonthly(effect.monthlyStopProbability),
});

export const lifeEventEffects: Readonly<Record<LifeEventKind, LifeEventEffect>> = {
  travel: withDailyStop({
    weight: 4,
    minimumDays: 3,
    maximumDays: 14,
    forgetMultiplier: 2.5,
    skipMultiplier: 1,
    monthlyStopProbability: 0.02,
    refillMultiplier: 0.2,
  }),
  illness: withDailyStop({
    weight: 3,
    minimumDays: 3,
    maximumDays: 10,
    forgetMultiplier: 1.5,
    skipMultiplier: 2,
    monthlyStopProbability: 0.25,
    refillMultiplier: 0.5,
  }),
  'stressful-period': withDailyStop({
    weight: 2,
    minimumDays: 14,
    maximumDays: 45,
    forgetMultiplier: 2,
    skipMultiplier: 1.5,
    monthlyStopProbability: 0.15,
    refillMultiplier: 0.6,
  }),
  'routine-change': withDailyStop({
    weight: 1,
    minimumDays: 14,
    maximumDays: 21,
    forgetMultiplier: 2,
    skipMultiplier: 1,
    monthlyStopProbability: 0.03,
    refillMultiplier: 1,
  }),
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
