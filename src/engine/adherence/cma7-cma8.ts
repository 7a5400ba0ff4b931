/**
 * CMA7 and CMA8 (DEFINITIONS.md §3): the share of the observation window's days covered, with supply
 * carried in from events before the window. CMA8 first moves the window start past the supply that
 * straddles it (e.g. a stock still in use after a switch) and keeps the window's length.
 */
import { endIndexOnOrBefore, firstIndexOnOrAfter } from './event-range';
import { runGapModel, type CarryOverRules } from './gap-model';
import type { MedicationEvent } from './medication-event';
import { roundHalfEven } from './round-half-even';
import type { PatientWindows } from './windows';

/** `events` are the patient's follow-up events sorted by day; null means undefined (NA). */
export function computeCma7(events: readonly MedicationEvent[], windows: PatientWindows, rules: CarryOverRules): number | null {
  const { observationStart, observationEnd } = windows;
  const end = endIndexOnOrBefore(events, observationEnd);
  const windowDays = observationEnd - observationStart;
  if (end === 0 || !(windowDays > 0)) return null;
  const { gaps } = runGapModel(events, 0, end, observationEnd, rules);
  const firstInWindow = firstIndexOnOrAfter(events, observationStart);

  if (firstInWindow >= end) {
    // Nothing inside the window: its days are covered only by what the last earlier event left.
    const lastGap = gaps[end - 1]!;
    return lastGap <= windowDays ? 1 - lastGap / windowDays : 0;
  }
  let gapDays = 0;
  for (let index = firstInWindow; index < end; index += 1) gapDays += gaps[index]!;
  const daysBeforeFirstEvent = events[firstInWindow]!.day - observationStart;
  // Uncovered days before the first in-window event: the part of the previous interval's gap that falls in the window.
  gapDays += firstInWindow === 0 ? daysBeforeFirstEvent : Math.min(gaps[firstInWindow - 1]!, daysBeforeFirstEvent);
  return 1 - gapDays / windowDays;
}

/**
 * The lagged window of CMA8: starts when the last supply begun before the window runs out, if that is
 * inside the window; null when that supply lasts to the window end or beyond (the lagged window is
 * empty; AdhereR 0.8.1 fails or answers 0/NA there).
 */
export function laggedObservationWindow(
  events: readonly MedicationEvent[],
  windows: PatientWindows,
  rules: CarryOverRules,
): PatientWindows | null {
  const { observationStart, observationEnd } = windows;
  const end = endIndexOnOrBefore(events, observationEnd);
  const firstInWindow = firstIndexOnOrAfter(events, observationStart);
  const { carriesIn } = runGapModel(events, 0, end, observationEnd, rules);
  let laggedStart = observationStart;
  for (let index = 0; index < Math.min(firstInWindow, end); index += 1) {
    const event = events[index]!;
    const supplyEnd = event.day + event.duration + carriesIn[index]!;
    if (supplyEnd > laggedStart) laggedStart = supplyEnd;
  }
  if (laggedStart >= observationEnd) return null;
  // AdhereR rounds the remaining length with R's round(), which rounds halves to even; it only matters
  // for fractional starts, which arise from dose-rescaled carry-over.
  return { ...windows, observationStart: laggedStart, observationEnd: laggedStart + roundHalfEven(observationEnd - laggedStart) };
}

export function computeCma8(events: readonly MedicationEvent[], windows: PatientWindows, rules: CarryOverRules): number | null {
  const lagged = laggedObservationWindow(events, windows, rules);
  return lagged === null ? null : computeCma7(events, lagged, rules);
}
