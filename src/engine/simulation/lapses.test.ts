import { describe, expect, it } from 'vitest';
import { createLapseTracker, endLapse, isLapseExplained, recordDoseDay } from './lapses';
import { lifeEventEffects, type LifeEvent } from './life-events';

function illness(startIndex: number, endIndex: number): LifeEvent {
  return { kind: 'illness', effect: lifeEventEffects.illness, startIndex, endIndex, routineShiftMinutes: 0 };
}

describe('lapses', () => {
  it('are explained by a life event under way in the month before they begin or starting in their first week', () => {
    expect(isLapseExplained([], 100)).toBe(false);
    expect(isLapseExplained([illness(95, 105)], 100)).toBe(true);
    expect(isLapseExplained([illness(60, 71)], 100)).toBe(true);
    expect(isLapseExplained([illness(60, 70)], 100)).toBe(false);
    expect(isLapseExplained([illness(106, 110)], 100)).toBe(true);
    expect(isLapseExplained([illness(107, 110)], 100)).toBe(false);
  });

  it('tracks the longest run of days without a dose taken, and the longest no life event explains', () => {
    const events = [illness(5, 15)];
    const tracker = createLapseTracker();
    const days = [true, ...Array<boolean>(20).fill(false), true, ...Array<boolean>(60).fill(true), ...Array<boolean>(30).fill(false)];
    days.forEach((anyTaken, dayIndex) => recordDoseDay(tracker, events, dayIndex, anyTaken));
    // Days 1–20 (explained: the illness began on day 5), then days 82–111, still running at the end.
    expect(tracker).toMatchObject({ longestDays: 20, longestUnexplainedDays: 0, startIndex: 82 });
    endLapse(tracker, events, days.length);
    expect(tracker).toEqual({ startIndex: -1, longestDays: 30, longestUnexplainedDays: 30 });
    endLapse(tracker, events, days.length + 5);
    expect(tracker.longestDays).toBe(30);
  });
});
