import { describe, expect, it } from 'vitest';
import { computeFollowUpOutcomes } from './follow-up-outcomes';

const enrolledOn = 20_000;
const twiceDaily = [{ start: enrolledOn - 200, end: null, dosesPerDay: 2 }];

function taken(entries: [number, number][]): Map<number, number> {
  return new Map(entries.map(([offset, count]) => [enrolledOn + offset, count]));
}

describe('computeFollowUpOutcomes', () => {
  it('counts a missing confirmation as not taken: 3 of 14 doses in week 1', () => {
    const result = computeFollowUpOutcomes({
      enrolledOn,
      weeks: 12,
      today: enrolledOn + 84,
      regimens: twiceDaily,
      gapDays: 7,
      takenByDay: taken([
        [0, 2],
        [3, 1],
      ]),
    });
    expect(result.weekly[0]).toBe(3 / 14);
    expect(result.weekly[1]).toBe(0);
    expect(result.outcome).toEqual({ taken: 3, scheduled: 168, adherence: 3 / 168 });
    expect(result.weeksReached).toBe(12);
  });

  it('counts only weeks already over while the trial runs', () => {
    const result = computeFollowUpOutcomes({
      enrolledOn,
      weeks: 12,
      today: enrolledOn + 20,
      regimens: twiceDaily,
      gapDays: 7,
      takenByDay: taken(Array.from({ length: 20 }, (_, day) => [day, 2] as [number, number])),
    });
    expect(result.weeksReached).toBe(2);
    expect(result.outcome).toEqual({ taken: 28, scheduled: 28, adherence: 1 });
    expect(result.weekly.slice(0, 3)).toEqual([1, 1, null]);
    expect(result.daysToFirstGap).toBeNull();
  });

  it('takes the baseline from the 12 weeks before enrolment, days with an active regimen only', () => {
    // Regimen from 14 days before enrolment: 28 doses due, 7 days with one taken each.
    const result = computeFollowUpOutcomes({
      enrolledOn,
      weeks: 12,
      today: enrolledOn,
      regimens: [{ start: enrolledOn - 14, end: null, dosesPerDay: 2 }],
      gapDays: 7,
      takenByDay: taken([[-30, 2], ...Array.from({ length: 7 }, (_, day) => [-7 + day, 1] as [number, number])]),
    });
    expect(result.baseline).toEqual({ taken: 7, scheduled: 28, adherence: 0.25 });
    expect(result.outcome.adherence).toBeNull();
    expect(result.weekly.every((week) => week === null)).toBe(true);
  });

  it('has no baseline without a regimen before enrolment, and adds overlapping regimens', () => {
    const result = computeFollowUpOutcomes({
      enrolledOn,
      weeks: 1,
      today: enrolledOn + 7,
      regimens: [
        { start: enrolledOn, end: enrolledOn + 2, dosesPerDay: 1 },
        { start: enrolledOn, end: null, dosesPerDay: 1 },
      ],
      gapDays: 7,
      takenByDay: taken([
        [0, 5],
        [1, 1],
      ]),
    });
    expect(result.baseline).toEqual({ taken: 0, scheduled: 0, adherence: null });
    // Days 0–2: 2 due, days 3–6: 1 due → 10; day 0 capped at its 2 doses.
    expect(result.outcome).toEqual({ taken: 3, scheduled: 10, adherence: 0.3 });
  });

  it('finds the first run of 7 days without a confirmed dose', () => {
    const base = { gapDays: 7, enrolledOn, weeks: 12, today: enrolledOn + 84, regimens: twiceDaily };
    // Taken on days 0 and 7: days 1–6 are only 6 in a row; days 8–14 make the gap, ending on day 14.
    expect(
      computeFollowUpOutcomes({
        ...base,
        gapDays: 7,
        takenByDay: taken([
          [0, 1],
          [7, 1],
        ]),
      }).daysToFirstGap,
    ).toBe(15);
    expect(computeFollowUpOutcomes({ ...base, takenByDay: new Map() }).daysToFirstGap).toBe(7);
    const everySixthDay = taken(Array.from({ length: 15 }, (_, index) => [index * 6, 1] as [number, number]));
    expect(computeFollowUpOutcomes({ ...base, takenByDay: everySixthDay }).daysToFirstGap).toBeNull();
  });
});
