/** One dispensing (or prescribing) event of a patient, as AdhereR reads it. */
export type MedicationEvent = {
  /** Day number of the event (see day-number.ts). */
  day: number;
  /** Days' supply (AdhereR's DURATION). */
  duration: number;
  /** Prescribed daily dose (AdhereR's PERDAY); only used to rescale carry-over on a dose change. */
  dose: number;
  /** Medication class (AdhereR's CATEGORY); only used for carry-over and episode rules. */
  medicationClass: string;
};

/**
 * Events sorted by day; same-day events keep their given order (AdhereR sorts stably, and the order of
 * same-day events matters for the carry-over of different classes and for which one counts as "last").
 * Returns the input itself when it is already sorted, so a sorted caller pays one linear check.
 */
export function sortEventsByDay(events: readonly MedicationEvent[]): readonly MedicationEvent[] {
  for (let index = 1; index < events.length; index += 1) {
    if (events[index]!.day < events[index - 1]!.day) {
      return [...events].sort((left, right) => left.day - right.day);
    }
  }
  return events;
}
