/**
 * The "simple" CMAs (CMA1–CMA9) of one patient, with AdhereR 0.8.1's windows and carry-over options.
 * Entry point for callers that hold a patient's events; per-episode and sliding-window CMAs reuse
 * `computeCmaInWindows` with their own windows.
 */
import { computeCma7, computeCma8 } from './cma7-cma8';
import { computeCma9 } from './cma9';
import { computeWithinWindowCma } from './cma-within-window';
import { endIndexOnOrBefore, firstIndexOnOrAfter } from './event-range';
import { POOLED_CARRY_OVER, type CarryOverRules } from './gap-model';
import { sortEventsByDay, type MedicationEvent } from './medication-event';
import { computePatientWindows, DEFAULT_WINDOW_SETTINGS, type PatientWindows, type WindowSettings } from './windows';

export const CMA_TYPES = ['CMA1', 'CMA2', 'CMA3', 'CMA4', 'CMA5', 'CMA6', 'CMA7', 'CMA8', 'CMA9'] as const;
export type CmaType = (typeof CMA_TYPES)[number];

export type CmaSettings = WindowSettings & CarryOverRules;

export const DEFAULT_CMA_SETTINGS: CmaSettings = { ...DEFAULT_WINDOW_SETTINGS, ...POOLED_CARRY_OVER };

/** CMA1–CMA4 ignore carry-over, doses and classes. */
export function usesCarryOver(type: CmaType): boolean {
  return type !== 'CMA1' && type !== 'CMA2' && type !== 'CMA3' && type !== 'CMA4';
}

/** The events inside the follow-up window (both ends included), without copying when all are. */
export function eventsInFollowUp(events: readonly MedicationEvent[], windows: PatientWindows): readonly MedicationEvent[] {
  const first = firstIndexOnOrAfter(events, windows.followUpStart);
  const end = endIndexOnOrBefore(events, windows.followUpEnd);
  return first === 0 && end === events.length ? events : events.slice(first, Math.max(first, end));
}

/**
 * A CMA over given windows. `followUpEvents` are sorted by day and lie inside the follow-up window.
 * null means undefined (AdhereR's NA, and R's NaN for 0/0); CMA2 can be Infinity as in R.
 */
export function computeCmaInWindows(
  type: CmaType,
  followUpEvents: readonly MedicationEvent[],
  windows: PatientWindows,
  rules: CarryOverRules,
): number | null {
  switch (type) {
    case 'CMA7':
      return computeCma7(followUpEvents, windows, rules);
    case 'CMA8':
      return computeCma8(followUpEvents, windows, rules);
    case 'CMA9':
      return computeCma9(followUpEvents, windows, rules);
    default:
      return computeWithinWindowCma(type, followUpEvents, windows, rules);
  }
}

/** One patient's CMA; events in any order (same-day events keep their relative order). */
export function computeCma(type: CmaType, events: readonly MedicationEvent[], settings: CmaSettings = DEFAULT_CMA_SETTINGS): number | null {
  if (events.length === 0) return null;
  const sorted = sortEventsByDay(events);
  const windows = computePatientWindows(sorted[0]!.day, settings);
  return computeCmaInWindows(type, eventsInFollowUp(sorted, windows), windows, settings);
}
