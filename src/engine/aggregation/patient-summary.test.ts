import { describe, expect, it } from 'vitest';
import type { MedicationEvent } from '@/engine/adherence/medication-event';
import { periodPdc, recentSupplyLapses, refillGaps, slidingCmaWindows, summariseDoses, treatmentEpisodes } from './patient-summary';

const period = { start: 1000, end: 1365 };
const fill = (day: number, duration = 30, medicationClass = 'statin'): MedicationEvent => ({ day, duration, dose: 1, medicationClass });

describe('periodPdc', () => {
  it('runs over the period when treatment began before it, carrying earlier supply in', () => {
    // 30 days from day 990 cover days 1000–1019 of the period; 90 from 1100 cover 1100–1189.
    expect(periodPdc([fill(990), fill(1100, 90)], period)).toEqual({
      value: 110 / 365,
      coveredDays: 110,
      periodDays: 365,
      start: 1000,
      end: 1365,
    });
  });

  it('runs from the first fill when treatment began inside the period (PQA)', () => {
    expect(periodPdc([fill(1300), fill(1330)], period)).toMatchObject({ value: 60 / 65, start: 1300, periodDays: 65 });
  });

  it('is null without a fill before the period’s end', () => {
    expect(periodPdc([], period)).toBeNull();
    expect(periodPdc([fill(1365)], period)).toBeNull();
  });
});

describe('recentSupplyLapses', () => {
  it('names the medicines whose supply ran out in the last days of the period and is still out', () => {
    // Statin: 30 days from 1330 run out at 1360, inside the last 7 days (1358–1364): a lapse.
    // Inhaler: ran out at 1350, before the last week: not this week's. Insulin: covered to the end.
    const events = [fill(1300), fill(1330), fill(1320, 30, 'inhaler'), fill(1340, 30, 'insulin')];
    expect(recentSupplyLapses(events, period)).toEqual([{ medicationClass: 'statin', start: 1360 }]);
    expect(
      recentSupplyLapses(events, period, 15)
        .map((lapse) => lapse.medicationClass)
        .sort(),
    ).toEqual(['inhaler', 'statin']);
  });

  it('forgets a lapse that a refill closed before the end', () => {
    expect(recentSupplyLapses([fill(1300), fill(1330), fill(1362)], period)).toEqual([]);
  });
});

describe('refillGaps', () => {
  it('finds the days without supply before each refill, per medication, that end inside the period', () => {
    const gaps = refillGaps([fill(800), fill(900), fill(1010), fill(1050), fill(1060, 30, 'inhaler'), fill(1100, 30, 'inhaler')], period);
    // Statin: 830–899 lies before the period (left out); 930–1009 ends inside it (shown whole); 1040–1049;
    // then supply runs out at 1080 until the end. Inhaler: 1090–1099, and from 1130 to the end.
    expect(gaps.map((gap) => [gap.medicationClass, gap.start, gap.end, gap.days])).toEqual([
      ['statin', 930, 1010, 80],
      ['statin', 1040, 1050, 10],
      ['statin', 1080, 1365, 285],
      ['inhaler', 1090, 1100, 10],
      ['inhaler', 1130, 1365, 235],
    ]);
  });

  it('counts an early refill’s left-over supply (carry-over), so no gap follows it', () => {
    expect(refillGaps([fill(1000), fill(1020), fill(1060)], period).map((gap) => [gap.start, gap.days])).toEqual([[1090, 275]]);
  });
});

describe('treatmentEpisodes', () => {
  it('ends an episode after a gap of more than 60 days, and marks the last one ongoing when it reaches the end', () => {
    const episodes = treatmentEpisodes([fill(1000), fill(1150, 90), fill(1240, 150)], period);
    expect(episodes).toEqual([
      { episode: 1, start: 1000, end: 1030, days: 30, ongoing: false },
      { episode: 2, start: 1150, end: 1365, days: 215, ongoing: true },
    ]);
  });

  it('keeps a gap of 60 days inside one episode', () => {
    // Supply to day 1029: a refill on 1090 follows a 60-day gap, one on 1091 a 61-day gap.
    expect(treatmentEpisodes([fill(1000), fill(1090)], period).map((episode) => episode.episode)).toEqual([1]);
    expect(treatmentEpisodes([fill(1000), fill(1091)], period).map((episode) => episode.episode)).toEqual([1, 2]);
  });
});

describe('slidingCmaWindows', () => {
  it('gives CMA7 and CMA9 in 90-day windows every 30 days over the observed part of the period', () => {
    const events = Array.from({ length: 13 }, (_, index) => fill(990 + index * 30));
    const windows = slidingCmaWindows(events, period);
    expect(windows[0]).toMatchObject({ start: 1000, end: 1090 });
    expect(windows.every((window) => window.end - window.start === 90)).toBe(true);
    expect(windows.map((window) => window.start - windows[0]!.start)).toEqual(windows.map((_, index) => index * 30));
    // Supply every day from day 990 on.
    expect(windows.every((window) => window.cma7 === 1 && window.cma9 === 1)).toBe(true);
    expect(slidingCmaWindows([], period)).toEqual([]);
  });
});

describe('summariseDoses', () => {
  const dose = (day: number, status: 'taken' | 'missed' | 'skipped', late = 0) => ({
    day,
    status,
    scheduledMinute: day * 1440 + 480,
    confirmedMinute: day * 1440 + 480 + late,
  });

  it('marks a day missed when any dose was missed, else skipped, else taken, and none without observed doses', () => {
    const { calendar } = summariseDoses(
      [dose(1001, 'taken'), dose(1001, 'missed'), dose(1002, 'taken'), dose(1002, 'skipped'), dose(1003, 'taken'), dose(1003, 'taken')],
      period,
    );
    expect(calendar).toHaveLength(365);
    expect(calendar.slice(0, 4)).toEqual([
      { day: 1000, status: 'none', takenDoses: 0, scheduledDoses: 0 },
      { day: 1001, status: 'missed', takenDoses: 1, scheduledDoses: 2 },
      { day: 1002, status: 'skipped', takenDoses: 1, scheduledDoses: 2 },
      { day: 1003, status: 'taken', takenDoses: 2, scheduledDoses: 2 },
    ]);
  });

  it('counts dose-level adherence over the period’s doses only, on time within an hour', () => {
    const { adherence, calendar } = summariseDoses(
      [dose(999, 'taken'), dose(1000, 'taken', 30), dose(1001, 'taken', 90), dose(1002, 'missed'), dose(1365, 'taken')],
      period,
    );
    expect(adherence).toMatchObject({ scheduledDoses: 3, confirmedDoses: 2, onTimeDoses: 1 });
    expect(adherence.confirmedShare).toBeCloseTo(2 / 3, 12);
    expect(calendar.filter((day) => day.status !== 'none')).toHaveLength(3);
  });
});
