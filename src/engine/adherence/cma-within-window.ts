/**
 * CMA1–CMA6: measures that look only at the events inside the observation window (DEFINITIONS.md §3).
 * CMA1/CMA2 add up supply (they can exceed 1), CMA3/CMA4 cap them at 1, CMA5/CMA6 count the gaps of
 * the carry-over model run inside the window. The "1" forms end at the last event (whose supply is left
 * out), the "2" forms at the window end.
 */
import { endIndexOnOrBefore, firstIndexOnOrAfter } from './event-range';
import { runGapModel, type CarryOverRules } from './gap-model';
import type { MedicationEvent } from './medication-event';
import type { PatientWindows } from './windows';

export type WithinWindowCma = 'CMA1' | 'CMA2' | 'CMA3' | 'CMA4' | 'CMA5' | 'CMA6';

/** `events` are the patient's follow-up events sorted by day; null means undefined (AdhereR's NA). */
export function computeWithinWindowCma(
  type: WithinWindowCma,
  events: readonly MedicationEvent[],
  windows: PatientWindows,
  rules: CarryOverRules,
): number | null {
  const first = firstIndexOnOrAfter(events, windows.observationStart);
  const end = endIndexOnOrBefore(events, windows.observationEnd);
  if (end <= first) return null;
  const firstDay = events[first]!.day;
  const lastDay = events[end - 1]!.day;
  const toLastEvent = type === 'CMA1' || type === 'CMA3' || type === 'CMA5';
  if (toLastEvent && lastDay === firstDay) return null;
  const denominator = toLastEvent ? lastDay - firstDay : windows.observationEnd - firstDay;

  if (type === 'CMA5' || type === 'CMA6') {
    const { gaps } = runGapModel(events, first, end, windows.observationEnd, rules);
    let gapDays = 0;
    for (let index = 0; index < (toLastEvent ? gaps.length - 1 : gaps.length); index += 1) gapDays += gaps[index]!;
    // An event dated on the window end makes the CMA6 ratio 0/0, which R reports as NA.
    return denominator === 0 ? null : 1 - gapDays / denominator;
  }

  let supply = 0;
  for (let index = first; index < (toLastEvent ? end - 1 : end); index += 1) supply += events[index]!.duration;
  // CMA2 divides by zero when its only events sit on the window end; R answers Inf and so do we. With no
  // supply either, R's 0/0 is NaN (is.na in R); we answer null, as for CMA6, so no NaN reaches a page.
  if (denominator === 0 && supply === 0) return null;
  const ratio = supply / denominator;
  return type === 'CMA3' || type === 'CMA4' ? Math.min(1, ratio) : ratio;
}
