/**
 * AdhereR's carry-over gap model (DEFINITIONS.md §2). Each event's interval runs to the next event (the
 * last one's to the window end); its supply plus the leftover carried in covers the interval from its
 * first day, so uncovered days ("gap") sit at the end of the interval and any surplus is carried on.
 */
import type { MedicationEvent } from './medication-event';

export type CarryOverRules = {
  /** Discard the leftover whenever the next event is of another class (it is not kept per class). */
  carryOnlyForSameMedication: boolean;
  /** Rescale the leftover by old dose / new dose when the dose changes. */
  considerDosageChange: boolean;
};

export const POOLED_CARRY_OVER: CarryOverRules = { carryOnlyForSameMedication: false, considerDosageChange: false };

export type GapModel = {
  /** Days from each event to the next (the last: to the window end). */
  intervals: number[];
  /** Leftover supply carried into each event (0 for the first). */
  carriesIn: number[];
  /** Uncovered days at the end of each interval. */
  gaps: number[];
};

/**
 * Runs the model over `events[first..end)` (sorted by day) up to `windowEnd`. Without `carryOver` every
 * interval stands alone (gap = interval − supply), as AdhereR does for CMA1–CMA4.
 */
export function runGapModel(
  events: readonly MedicationEvent[],
  first: number,
  end: number,
  windowEnd: number,
  rules: CarryOverRules,
  carryOver = true,
): GapModel {
  const intervals: number[] = [];
  const carriesIn: number[] = [];
  const gaps: number[] = [];
  let carry = 0;
  for (let index = first; index < end; index += 1) {
    const event = events[index]!;
    const next = index + 1 < end ? events[index + 1] : undefined;
    const interval = (next === undefined ? windowEnd : next.day) - event.day;
    const uncovered = interval - event.duration - carry;
    intervals.push(interval);
    carriesIn.push(carry);
    gaps.push(uncovered > 0 ? uncovered : 0);
    carry = carryOver && uncovered < 0 ? -uncovered : 0;
    if (next !== undefined && carry > 0) {
      if (rules.carryOnlyForSameMedication && event.medicationClass !== next.medicationClass) carry = 0;
      else if (rules.considerDosageChange) carry = (carry * event.dose) / next.dose;
    }
  }
  return { intervals, carriesIn, gaps };
}
