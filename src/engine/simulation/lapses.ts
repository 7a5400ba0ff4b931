/**
 * Lapses: runs of days on which doses were due and none was taken (simulation truth: stopped, out of
 * supply, or every dose of the day forgotten or skipped). They check that a persona behaves as it is
 * described (issue 11): a long lapse needs a reason — the persona's own (concerns, cost, early doubts, a
 * busy life) or a life event. A life event explains a lapse when it was under way in the month before the
 * lapse began or began within its first week.
 */
import type { LifeEvent } from './life-events';

/** A lapse this long is one a clinician would ask about (three months without a dose). */
export const longLapseDays = 90;
const explainingDaysBefore = 30;
const explainingDaysAfter = 7;

export function isLapseExplained(lifeEvents: readonly LifeEvent[], startIndex: number): boolean {
  return lifeEvents.some(
    (event) => event.startIndex < startIndex + explainingDaysAfter && event.endIndex > startIndex - explainingDaysBefore,
  );
}

export type LapseTracker = {
  /** Day index the current lapse began, or -1. */
  startIndex: number;
  longestDays: number;
  longestUnexplainedDays: number;
};

export function createLapseTracker(): LapseTracker {
  return { startIndex: -1, longestDays: 0, longestUnexplainedDays: 0 };
}

/** Records one day with doses due. */
export function recordDoseDay(tracker: LapseTracker, lifeEvents: readonly LifeEvent[], dayIndex: number, anyTaken: boolean): void {
  if (!anyTaken) {
    if (tracker.startIndex < 0) tracker.startIndex = dayIndex;
  } else if (tracker.startIndex >= 0) endLapse(tracker, lifeEvents, dayIndex);
}

/** Ends the current lapse, if any, before `endIndex` (a dose taken that day, or the end of the run). */
export function endLapse(tracker: LapseTracker, lifeEvents: readonly LifeEvent[], endIndex: number): void {
  const start = tracker.startIndex;
  if (start < 0) return;
  tracker.startIndex = -1;
  const days = endIndex - start;
  tracker.longestDays = Math.max(tracker.longestDays, days);
  if (days > tracker.longestUnexplainedDays && !isLapseExplained(lifeEvents, start)) tracker.longestUnexplainedDays = days;
}
