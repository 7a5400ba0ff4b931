/** Index ranges of sorted events, found by a linear scan (patients have tens of events, not thousands). */
import type { MedicationEvent } from './medication-event';

/** Index of the first event dated on or after `day` (events.length if none). */
export function firstIndexOnOrAfter(events: readonly MedicationEvent[], day: number): number {
  let index = 0;
  while (index < events.length && events[index]!.day < day) index += 1;
  return index;
}

/** Index just past the last event dated on or before `day`. */
export function endIndexOnOrBefore(events: readonly MedicationEvent[], day: number): number {
  let index = events.length;
  while (index > 0 && events[index - 1]!.day > day) index -= 1;
  return index;
}
