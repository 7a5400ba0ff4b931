import { describe, expect, it } from 'vitest';
import { lifestyleSurvey } from './definitions';
import { summariseResponse } from './results';
import { scoreAuditC, scoreIpaq } from './scoring';

const none = { vigorousDays: 0, vigorousMinutes: 0, moderateDays: 0, moderateMinutes: 0, walkingDays: 0, walkingMinutes: 0 };

// Hand-computed from the IPAQ scoring protocol (2005): MET-min = MET × minutes × days, with 3.3 / 4.0 / 8.0.
describe('IPAQ short form scoring', () => {
  it('high: vigorous on 3 days and at least 1500 MET-min (720 + 320 + 495 = 1535)', () => {
    const score = scoreIpaq({
      vigorousDays: 3,
      vigorousMinutes: 30,
      moderateDays: 2,
      moderateMinutes: 40,
      walkingDays: 5,
      walkingMinutes: 30,
    });
    expect(score).toEqual({ valid: true, metMinutes: { walking: 495, moderate: 320, vigorous: 720, total: 1535 }, category: 'high' });
  });

  it('moderate: 5 days of walking 30 minutes (495 MET-min)', () => {
    expect(scoreIpaq({ ...none, walkingDays: 5, walkingMinutes: 30 })).toMatchObject({ category: 'moderate', metMinutes: { total: 495 } });
  });

  it('moderate: 3 days of vigorous activity of 20 minutes (480 MET-min)', () => {
    expect(scoreIpaq({ ...none, vigorousDays: 3, vigorousMinutes: 20 })).toMatchObject({
      category: 'moderate',
      metMinutes: { total: 480 },
    });
  });

  it('moderate: 5 days of any combination reaching 600 MET-min (480 + 198 = 678)', () => {
    const score = scoreIpaq({ ...none, vigorousDays: 1, vigorousMinutes: 60, walkingDays: 4, walkingMinutes: 15 });
    expect(score.valid && score.metMinutes.total).toBeCloseTo(678, 10);
    expect(score.valid && score.category).toBe('moderate');
  });

  it('low: 4 days and 318 MET-min (198 + 120)', () => {
    const score = scoreIpaq({ ...none, moderateDays: 1, moderateMinutes: 30, walkingDays: 3, walkingMinutes: 20 });
    expect(score.valid && score.metMinutes.total).toBeCloseTo(318, 10);
    expect(score.valid && score.category).toBe('low');
  });

  it('truncates a day over 180 minutes to 180 (7 × 180 × 3.3 = 4158, high) and drops bouts under 10 minutes', () => {
    expect(scoreIpaq({ ...none, walkingDays: 7, walkingMinutes: 240 })).toMatchObject({ category: 'high', metMinutes: { walking: 4158 } });
    expect(scoreIpaq({ ...none, vigorousDays: 2, vigorousMinutes: 5 })).toMatchObject({ category: 'low', metMinutes: { total: 0 } });
  });

  it('high: 7 days of a combination reaching 3000 MET-min, without vigorous activity (4 × 180 × 3.3 + 3 × 60 × 4 = 3096)', () => {
    const score = scoreIpaq({ ...none, walkingDays: 4, walkingMinutes: 180, moderateDays: 3, moderateMinutes: 60 });
    expect(score.valid && score.metMinutes.total).toBeCloseTo(3096, 10);
    expect(score.valid && score.category).toBe('high');
  });

  it('not high on 1500 MET-min or more from fewer than 3 vigorous days: 2 × 180 × 8 = 2880 on 2 days is low', () => {
    expect(scoreIpaq({ ...none, vigorousDays: 2, vigorousMinutes: 180 })).toMatchObject({ category: 'low', metMinutes: { total: 2880 } });
  });

  it('moderate, not high: 3 vigorous days under 1500 MET-min (3 × 60 × 8 = 1440)', () => {
    expect(scoreIpaq({ ...none, vigorousDays: 3, vigorousMinutes: 60 })).toMatchObject({
      category: 'moderate',
      metMinutes: { total: 1440 },
    });
  });

  it('keeps exactly 960 minutes a day (the limit is "more than 960"), each activity then truncated to 180', () => {
    const score = scoreIpaq({
      vigorousDays: 1,
      vigorousMinutes: 400,
      moderateDays: 1,
      moderateMinutes: 360,
      walkingDays: 1,
      walkingMinutes: 200,
    });
    expect(score).toEqual({
      valid: true,
      metMinutes: { walking: 594, moderate: 720, vigorous: 1440, total: 2754 },
      category: 'low',
    });
  });

  it('excludes more than 960 minutes of activity a day, and days outside 0–7', () => {
    expect(
      scoreIpaq({ vigorousDays: 1, vigorousMinutes: 500, moderateDays: 1, moderateMinutes: 300, walkingDays: 1, walkingMinutes: 200 })
        .valid,
    ).toBe(false);
    expect(scoreIpaq({ ...none, walkingDays: 8, walkingMinutes: 30 })).toEqual({
      valid: false,
      reason: 'walkingDays must be a whole number from 0 to 7',
    });
  });
});

describe('AUDIT-C scoring', () => {
  it('sums the three items 0–12 with cut-offs 4 (men) and 3 (women, sex unknown)', () => {
    expect(scoreAuditC([2, 1, 1], 'male')).toEqual({ score: 4, cutOff: 4, positive: true });
    expect(scoreAuditC([2, 1, 0], 'male')).toEqual({ score: 3, cutOff: 4, positive: false });
    expect(scoreAuditC([2, 1, 0], 'female')).toEqual({ score: 3, cutOff: 3, positive: true });
    expect(scoreAuditC([1, 1, 0], null)).toEqual({ score: 2, cutOff: 3, positive: false });
    expect(scoreAuditC([4, 4, 4], 'male').score).toBe(12);
    expect(() => scoreAuditC([5, 0, 0], null)).toThrow(RangeError);
  });
});

describe('a lifestyle response summarised', () => {
  it('scores IPAQ and AUDIT-C from the answers and keeps one category per measure', () => {
    const result = summariseResponse(
      lifestyleSurvey,
      {
        'ipaq-vigorous-days': '0',
        'ipaq-moderate-days': '0',
        'ipaq-walking-days': '5',
        'ipaq-walking-minutes': 30,
        'ipaq-sitting-minutes': 300,
        'audit-c-frequency': '2-3-week',
        'audit-c-quantity': '3-4',
        'audit-c-binge': 'never',
        'sleep-hours': '7-8',
        smoking: 'former',
      },
      'male',
    );
    expect(result.ipaq).toMatchObject({ category: 'moderate', metMinutes: { total: 495 } });
    expect(result.auditC).toEqual({ score: 4, cutOff: 4, positive: true });
    expect(result.summary).toEqual({ ipaq: 'moderate', 'audit-c': 'positive', 'sleep-hours': '7-8', smoking: 'former' });
  });
});
