/**
 * Medication possession ratio (DEFINITIONS.md §6). There is no single standard, so the form is named:
 * refill-interval (= CMA1: supply of all fills but the last over first-to-last fill), to-window-end
 * (= CMA2: all supply over first fill to window end) and fixed-period (all supply in the observation
 * window over its length). No overlap handling: early refills inflate MPR, unlike PDC.
 */
import { sortEventsByDay, type MedicationEvent } from './medication-event';
import { endIndexOnOrBefore, firstIndexOnOrAfter } from './event-range';
import { computeCmaInWindows, eventsInFollowUp, type CmaSettings } from './simple-cma';
import { computePatientWindows } from './windows';

export const MPR_FORMS = ['refill-interval', 'to-window-end', 'fixed-period'] as const;
export type MprForm = (typeof MPR_FORMS)[number];

export type MprOptions = { form: MprForm; /** min(1, MPR), like CMA3/CMA4. */ capped?: boolean };

/** null when undefined (fewer fills than the form needs); fixed-period MPR without fills is 0. */
export function computeMpr(events: readonly MedicationEvent[], settings: CmaSettings, options: MprOptions): number | null {
  if (events.length === 0) return null;
  const sorted = sortEventsByDay(events);
  const windows = computePatientWindows(sorted[0]!.day, settings);
  const followUpEvents = eventsInFollowUp(sorted, windows);
  let ratio: number | null;
  if (options.form === 'fixed-period') {
    const windowDays = windows.observationEnd - windows.observationStart;
    let supply = 0;
    const end = endIndexOnOrBefore(followUpEvents, windows.observationEnd);
    for (let index = firstIndexOnOrAfter(followUpEvents, windows.observationStart); index < end; index += 1)
      supply += followUpEvents[index]!.duration;
    ratio = windowDays > 0 ? supply / windowDays : null;
  } else {
    ratio = computeCmaInWindows(options.form === 'refill-interval' ? 'CMA1' : 'CMA2', followUpEvents, windows, settings);
  }
  return ratio !== null && options.capped ? Math.min(1, ratio) : ratio;
}
