import { describe, expect, it } from 'vitest';
import { createFixedDailyPolicy } from '@/engine/simulation/policies/fixed-daily-policy';
import { createFixedWeeklyPolicy } from '@/engine/simulation/policies/fixed-weekly-policy';
import { localClockAt } from '@/engine/messaging/local-clock';
import type { MessagingPolicy } from './contract';
import { decisionSeed, planPatientDay, randomSourceForSeed, type PatientDayInput } from './plan-patient-day';

const hour = 3_600_000;

function input(overrides: Partial<PatientDayInput> & Pick<PatientDayInput, 'now'>): PatientDayInput {
  return {
    patientId: 'p-1',
    persona: 'busy-professional',
    features: {
      ageBand: '35-44',
      sex: 'female',
      conditions: ['hypertension'],
      productCount: 1,
      preferredChannel: 'whatsapp',
      doseObserver: 'whatsapp',
    },
    timeZone: 'America/New_York',
    programmeStartDay: null,
    firstDoseMinute: 480,
    recentHistory: { dosesScheduledLast7Days: 7, dosesConfirmedLast7Days: 6, daysSinceLastReply: 1, estimatedDaysOfSupplyLeft: 20 },
    messageCounts: { last7Days: 0, last28Days: 0, total: 0, repliesLast28Days: 0 },
    recentSendTimes: [],
    policy: createFixedDailyPolicy(),
    ...overrides,
  };
}

// A policy that draws: what it chose depends only on the random source.
const drawingPolicy: MessagingPolicy = {
  name: 'drawing',
  version: '3',
  decide: (_context, random) => {
    const draw = random();
    return draw < 0.5
      ? { kind: 'no-message', propensity: 0.5 }
      : { kind: 'message', arm: { category: 'education', framing: 'gain' }, minuteOfDay: 600 + Math.floor(draw * 100), propensity: 0.5 };
  },
};

describe('planPatientDay', () => {
  it.each([
    // [label, zone, now (UTC), chosen minute, expected local send minute or reason]
    ['an ordinary morning at the chosen time', 'America/New_York', Date.UTC(2026, 10, 24, 6), 8 * 60, { minute: 480, reason: null }],
    ['chosen time already passed: now', 'America/New_York', Date.UTC(2026, 10, 24, 15, 30), 8 * 60, { minute: 630, reason: 'not-before' }],
    [
      'chosen in morning quiet hours: moved to 08:00',
      'Europe/Madrid',
      Date.UTC(2026, 10, 24, 0, 30),
      6 * 60,
      { minute: 480, reason: 'quiet-hours' },
    ],
    ['chosen at 20:59: the last allowed minute', 'Europe/Madrid', Date.UTC(2026, 10, 24, 5), 20 * 60 + 59, { minute: 1259, reason: null }],
    ['chosen at 21:00: quiet until tomorrow, given up', 'Europe/Madrid', Date.UTC(2026, 10, 24, 5), 21 * 60, { reason: 'quiet-hours' }],
    ['planned at 22:00 local: given up', 'America/New_York', Date.UTC(2026, 10, 25, 3), 8 * 60, { reason: 'quiet-hours' }],
    // 2026-03-08: New York springs forward at 02:00; 2026-03-29 Madrid at 02:00; 2026-11-01 New York falls back.
    ['spring-forward day in New York', 'America/New_York', Date.UTC(2026, 2, 8, 5, 30), 8 * 60, { minute: 480, reason: null }],
    ['spring-forward day in Madrid', 'Europe/Madrid', Date.UTC(2026, 2, 29, 0, 30), 8 * 60, { minute: 480, reason: null }],
    ['fall-back day in New York', 'America/New_York', Date.UTC(2026, 10, 1, 4, 30), 8 * 60, { minute: 480, reason: null }],
    ['fall-back day in Madrid, quiet morning', 'Europe/Madrid', Date.UTC(2026, 9, 25, 1), 7 * 60, { minute: 480, reason: 'quiet-hours' }],
  ] as const)('%s', (_label, timeZone, now, minute, expected) => {
    const plan = planPatientDay(input({ timeZone, now, policy: createFixedDailyPolicy({ minuteOfDay: minute }) }));
    const today = localClockAt(now, timeZone).day;
    if ('minute' in expected) {
      expect(plan.status).toBe('planned');
      expect(plan.statusReason).toBeNull();
      expect(plan.context.sendTimeMoved).toBe(expected.reason ?? undefined);
      expect(localClockAt(plan.scheduledFor!, timeZone)).toEqual({ day: today, minute: expected.minute });
    } else {
      expect(plan).toMatchObject({ status: 'not-sent', statusReason: expected.reason, scheduledFor: null, action: 'message' });
    }
    expect(plan.localDate).toBe(new Date(today * 86_400_000).toISOString().slice(0, 10));
  });

  it('on the DST day the UTC instant differs by the offset change (08:00 EST vs EDT)', () => {
    const before = planPatientDay(input({ now: Date.UTC(2026, 2, 7, 6) }));
    const after = planPatientDay(input({ now: Date.UTC(2026, 2, 8, 6) }));
    expect(new Date(before.scheduledFor!).toISOString()).toBe('2026-03-07T13:00:00.000Z');
    expect(new Date(after.scheduledFor!).toISOString()).toBe('2026-03-08T12:00:00.000Z');
  });

  it('gives up with frequency-cap when the cap is reached at the send time', () => {
    const now = Date.UTC(2026, 10, 24, 6);
    const recent = [now - 2 * hour, now - hour];
    const plan = planPatientDay(input({ now, recentSendTimes: recent }));
    expect(plan).toMatchObject({ status: 'not-sent', statusReason: 'frequency-cap', scheduledFor: null, templateId: 'reminder.neutral.1' });
    // Both sent before 13:00 UTC yesterday have left the 24-hour window by 08:00 local (13:00 UTC): allowed.
    const later = planPatientDay(input({ now, recentSendTimes: recent.map((instant) => instant - 20 * hour) }));
    expect(later.status).toBe('planned');
  });

  it('records no-message choices with their reason and weekday', () => {
    // 2026-11-24 is a Tuesday; the weekly check-in is on Monday.
    const plan = planPatientDay(input({ now: Date.UTC(2026, 10, 24, 12), policy: createFixedWeeklyPolicy() }));
    expect(plan).toMatchObject({ action: 'no-message', status: 'no-message', statusReason: 'policy', scheduledFor: null, propensity: 1 });
    expect(plan.context.weekday).toBe(2);
    const monday = planPatientDay(input({ now: Date.UTC(2026, 10, 23, 12), policy: createFixedWeeklyPolicy() }));
    expect(monday).toMatchObject({ action: 'message', templateId: 'check-in.neutral.1' });
  });

  it('rotates template variants with the running message count, as the simulator does', () => {
    const ids = [0, 1, 2, 3].map(
      (total) =>
        planPatientDay(
          input({ now: Date.UTC(2026, 10, 24, 6), messageCounts: { last7Days: 0, last28Days: 0, total, repliesLast28Days: 0 } }),
        ).templateId,
    );
    expect(ids).toEqual(['reminder.neutral.1', 'reminder.neutral.2', 'reminder.neutral.3', 'reminder.neutral.1']);
  });

  it('is deterministic per patient, local date and policy version, and records the seed', () => {
    const now = Date.UTC(2026, 10, 24, 6);
    const first = planPatientDay(input({ now, policy: drawingPolicy }));
    const again = planPatientDay(input({ now: now + 3 * hour, policy: drawingPolicy }));
    expect(first.randomSeed).toBe(decisionSeed('p-1', '2026-11-24', drawingPolicy));
    expect(first.randomSeed).toBe('p-1|2026-11-24|drawing@3');
    expect([again.action, again.minuteOfDay]).toEqual([first.action, first.minuteOfDay]);
    expect(randomSourceForSeed(first.randomSeed)()).toBe(randomSourceForSeed(first.randomSeed)());
    // Over many patients the draws differ (both branches are taken).
    const actions = new Set(
      Array.from({ length: 40 }, (_, index) => planPatientDay(input({ now, patientId: `p-${index}`, policy: drawingPolicy })).action),
    );
    expect(actions).toEqual(new Set(['message', 'no-message']));
  });

  it('devSendNow sends at now, even in quiet hours, and says so', () => {
    const now = Date.UTC(2026, 10, 25, 3); // 22:00 in New York
    const plan = planPatientDay(input({ now, devSendNow: true }));
    expect(plan).toMatchObject({ status: 'planned', scheduledFor: now, statusReason: null });
    expect(plan.context.devSendNow).toBe(true);
    expect(planPatientDay(input({ now })).context).not.toHaveProperty('devSendNow');
  });

  it('counts the programme day from the first decision', () => {
    const now = Date.UTC(2026, 10, 24, 6);
    const today = localClockAt(now, 'America/New_York').day;
    expect(planPatientDay(input({ now, programmeStartDay: today - 10 })).context.dayIndex).toBe(10);
    expect(planPatientDay(input({ now })).context.dayIndex).toBe(0);
  });
});
