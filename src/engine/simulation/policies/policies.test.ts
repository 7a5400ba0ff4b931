import { describe, expect, it } from 'vitest';
import { createFixedDailyPolicy, defaultDailyReminderMinute } from './fixed-daily-policy';
import { createFixedWeeklyPolicy } from './fixed-weekly-policy';
import type { DecisionContext } from '@/engine/policy/contract';
import { createNoMessagePolicy } from './no-message-policy';
import { createPolicy, isPolicyName, policyNames } from './policy-registry';

function contextOn(weekday: number): DecisionContext {
  return {
    patientId: 'sim-1-000001',
    persona: 'busy-professional',
    features: {
      ageBand: '35-44',
      sex: 'female',
      conditions: ['hypertension'],
      productCount: 1,
      preferredChannel: 'whatsapp',
      doseObserver: 'app',
    },
    day: 20_089 + weekday,
    dayIndex: weekday,
    weekday,
    minuteOfDay: 300,
    firstDoseMinute: 450,
    recentHistory: { dosesScheduledLast7Days: 7, dosesConfirmedLast7Days: 5, daysSinceLastReply: null, estimatedDaysOfSupplyLeft: 12 },
    messageCounts: { last7Days: 0, last28Days: 0, total: 0, repliesLast28Days: 0 },
  };
}

const random = () => 0.5;
const week = [0, 1, 2, 3, 4, 5, 6].map(contextOn);

describe('fixed policies', () => {
  it('none never sends, with certainty', () => {
    const policy = createNoMessagePolicy();
    for (const context of week) expect(policy.decide(context, random)).toEqual({ kind: 'no-message', propensity: 1 });
    expect(policy.learn).toBeUndefined();
  });

  it('fixed-daily sends the same neutral reminder every day at the same time', () => {
    const policy = createFixedDailyPolicy();
    for (const context of week) {
      expect(policy.decide(context, random)).toEqual({
        kind: 'message',
        arm: { category: 'reminder', framing: 'neutral' },
        minuteOfDay: defaultDailyReminderMinute,
        propensity: 1,
      });
    }
    expect(createFixedDailyPolicy({ minuteOfDay: 1200 }).decide(contextOn(3), random)).toMatchObject({ minuteOfDay: 1200 });
  });

  it('fixed-weekly checks in once a week, on Monday by default', () => {
    const choices = week.map((context) => createFixedWeeklyPolicy().decide(context, random));
    expect(choices.filter((choice) => choice.kind === 'message')).toHaveLength(1);
    expect(choices[1]).toMatchObject({ kind: 'message', arm: { category: 'check-in' }, propensity: 1 });
    const fridays = week.map((context) => createFixedWeeklyPolicy({ weekday: 5 }).decide(context, random).kind);
    expect(fridays.indexOf('message')).toBe(5);
  });

  it('are all reachable by name', () => {
    for (const name of policyNames) {
      expect(isPolicyName(name)).toBe(true);
      expect(createPolicy(name).name).toBe(name);
    }
    expect(isPolicyName('thompson')).toBe(false);
  });
});
