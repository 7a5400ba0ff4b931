/**
 * CMA in sliding windows (AdhereR's CMA_sliding_window, DEFINITIONS.md §4): windows of a fixed length
 * laid from the observation window start, `step` days apart, as many as fit inside the observation
 * window; each is used as the observation window of the chosen CMA (the follow-up window stays).
 */
import { sortEventsByDay, type MedicationEvent } from './medication-event';
import { computeCmaInWindows, eventsInFollowUp, type CmaSettings, type CmaType } from './simple-cma';
import { computePatientWindows } from './windows';

export type SlidingWindowSettings = {
  /** Days from the observation window start to the first window's start. */
  start: number;
  /** Length of each window in days. */
  duration: number;
  /** Days between successive window starts. */
  step: number;
};

export type WindowCma = {
  /** Numbered from 1. */
  window: number;
  start: number;
  end: number;
  value: number | null;
};

export function computeSlidingWindowCma(
  type: CmaType,
  events: readonly MedicationEvent[],
  settings: CmaSettings,
  sliding: SlidingWindowSettings,
): WindowCma[] {
  if (!(sliding.step > 0) || !(sliding.duration > 0)) throw new RangeError('Sliding windows need a positive duration and step.');
  if (events.length === 0) return [];
  const sorted = sortEventsByDay(events);
  const windows = computePatientWindows(sorted[0]!.day, settings);
  const followUpEvents = eventsInFollowUp(sorted, windows);
  const firstStart = windows.observationStart + sliding.start;
  const count = Math.floor((windows.observationEnd - firstStart - sliding.duration) / sliding.step) + 1;
  const results: WindowCma[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = firstStart + index * sliding.step;
    const end = start + sliding.duration;
    const value = computeCmaInWindows(type, followUpEvents, { ...windows, observationStart: start, observationEnd: end }, settings);
    results.push({ window: index + 1, start, end, value });
  }
  return results;
}
