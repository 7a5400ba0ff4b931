/**
 * Follow-up and observation windows (AdhereR: follow-up window from each patient's first event, the
 * observation window offset from the follow-up start). All bounds are day numbers; both windows are
 * closed intervals for deciding which events belong to them, and their lengths are end − start.
 */
import { addCalendarMonths } from './day-number';

export type TimeUnit = 'days' | 'weeks' | 'months' | 'years';

/** An amount of time; a bare number means days. */
export type TimeSpan = number | { amount: number; unit: TimeUnit };

export type WindowSettings = {
  followUpStart: TimeSpan;
  followUpDuration: TimeSpan;
  observationStart: TimeSpan;
  observationDuration: TimeSpan;
};

/** AdhereR's package defaults: follow-up 0 + 730 days, observation 0 + 730 days. */
export const DEFAULT_WINDOW_SETTINGS: WindowSettings = {
  followUpStart: 0,
  followUpDuration: 730,
  observationStart: 0,
  observationDuration: 730,
};

export type PatientWindows = {
  followUpStart: number;
  followUpEnd: number;
  observationStart: number;
  observationEnd: number;
};

/** Adds a span to a day: days and weeks exactly (rounded to whole days), months and years on the calendar. */
export function addTimeSpan(day: number, span: TimeSpan): number {
  if (typeof span === 'number') return day + Math.round(span);
  switch (span.unit) {
    case 'days':
      return day + Math.round(span.amount);
    case 'weeks':
      return day + Math.round(span.amount * 7);
    case 'months':
      return addCalendarMonths(day, Math.round(span.amount));
    case 'years':
      return addCalendarMonths(day, Math.round(span.amount) * 12);
  }
}

/** The windows of a patient whose first event is on `firstEventDay`; throws if the OW leaves the FUW. */
export function computePatientWindows(firstEventDay: number, settings: WindowSettings): PatientWindows {
  const followUpStart = addTimeSpan(firstEventDay, settings.followUpStart);
  const followUpEnd = addTimeSpan(followUpStart, settings.followUpDuration);
  const observationStart = addTimeSpan(followUpStart, settings.observationStart);
  const observationEnd = addTimeSpan(observationStart, settings.observationDuration);
  if (
    observationStart < followUpStart ||
    observationEnd > followUpEnd ||
    observationEnd < observationStart ||
    followUpEnd < followUpStart
  ) {
    throw new RangeError('The observation window must lie inside the follow-up window.');
  }
  return { followUpStart, followUpEnd, observationStart, observationEnd };
}
