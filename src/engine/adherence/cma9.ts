/**
 * CMA9 (DEFINITIONS.md §3): every day of the observation window is weighted by the covered share of
 * the inter-fill interval it falls in, from the carry-over model run over the whole follow-up window.
 */
import { endIndexOnOrBefore } from './event-range';
import { runGapModel, type CarryOverRules } from './gap-model';
import type { MedicationEvent } from './medication-event';
import type { PatientWindows } from './windows';

/** `events` are the patient's follow-up events sorted by day; null means undefined (NA). */
export function computeCma9(events: readonly MedicationEvent[], windows: PatientWindows, rules: CarryOverRules): number | null {
  const { observationStart, observationEnd } = windows;
  if (endIndexOnOrBefore(events, observationEnd) === 0 || !(observationEnd > observationStart)) return null;
  const { intervals, gaps } = runGapModel(events, 0, events.length, windows.followUpEnd, rules);
  let weightedCoverage = 0;
  for (let index = 0; index < events.length; index += 1) {
    const interval = intervals[index]!;
    if (interval === 0) continue; // same-day events: a 0/0 ratio that AdhereR drops
    const day = events[index]!.day;
    const overlap = Math.min(day + interval, observationEnd) - Math.max(day, observationStart);
    if (overlap > 0) weightedCoverage += (1 - gaps[index]! / interval) * overlap;
  }
  return weightedCoverage / (observationEnd - observationStart);
}
