import { describe, expect, it } from 'vitest';
import { computeDoseAdherence } from './dose-adherence';

describe('dose-level adherence', () => {
  const doses = [
    { scheduledMinute: 480, confirmedMinute: 470 },
    { scheduledMinute: 1_920, confirmedMinute: 2_100 },
    { scheduledMinute: 3_360, confirmedMinute: null },
    { scheduledMinute: 4_800, confirmedMinute: 4_860 },
  ];

  it('counts confirmed doses and those confirmed within the window, both ends included', () => {
    expect(computeDoseAdherence(doses, { onTimeWindowMinutes: 60 })).toEqual({
      scheduledDoses: 4,
      confirmedDoses: 3,
      onTimeDoses: 2,
      confirmedShare: 0.75,
      onTimeShare: 0.5,
    });
  });

  it('counts only doses scheduled in the period, and is undefined without any', () => {
    expect(computeDoseAdherence(doses, { onTimeWindowMinutes: 60, periodStartMinute: 1_440, periodEndMinute: 4_800 }).scheduledDoses).toBe(
      2,
    );
    expect(computeDoseAdherence([], { onTimeWindowMinutes: 60 }).confirmedShare).toBeNull();
  });
});
