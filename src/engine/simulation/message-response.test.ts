import { describe, expect, it } from 'vitest';
import {
  channelReportsReads,
  drawReadMinute,
  habituation,
  habituationFactor,
  optOutProbability,
  readProbability,
  reminderTimingFactor,
  replyProbability,
  stopProtection,
} from './message-response';
import { createRandomStream } from './random';

/** Freshness of the n-th message when the same arm is sent every `intervalDays` days. */
function freshnessAfter(messages: number, intervalDays: number): number {
  let exposure = 0;
  let freshness = 1;
  for (let message = 0; message < messages; message += 1) {
    freshness = habituationFactor(exposure, exposure, exposure);
    exposure = exposure * habituation.dailyRetention ** intervalDays + 1;
  }
  return freshness;
}

describe('habituation', () => {
  it('leaves a first message its full effect and shrinks it with repetition', () => {
    expect(habituationFactor(0, 0, 0)).toBe(1);
    expect(habituationFactor(5, 5, 5)).toBeLessThan(habituationFactor(1, 1, 1));
    // Another arm of the same category habituates less than the same arm.
    expect(habituationFactor(0, 5, 5)).toBeGreaterThan(habituationFactor(5, 5, 5));
  });

  it('wears a daily reminder down over weeks, a weekly one far less (HeartSteps 2019)', () => {
    const afterOneWeek = freshnessAfter(7, 1);
    const afterSixWeeks = freshnessAfter(42, 1);
    expect(afterOneWeek).toBeLessThan(0.7);
    expect(afterOneWeek).toBeGreaterThan(0.45);
    expect(afterSixWeeks).toBeLessThan(0.35);
    expect(afterSixWeeks).toBeGreaterThan(0.2);
    expect(freshnessAfter(12, 7)).toBeGreaterThan(0.6);
  });

  it('makes repeated content less likely to be read', () => {
    expect(readProbability('whatsapp', 0.3)).toBeLessThan(readProbability('whatsapp', 1));
    expect(channelReportsReads('sms')).toBe(false);
    expect(channelReportsReads('whatsapp')).toBe(true);
  });
});

describe('timing', () => {
  it('helps most just before the dose and not at all well after it', () => {
    expect(reminderTimingFactor(30)).toBe(1);
    expect(reminderTimingFactor(240)).toBeLessThan(1);
    expect(reminderTimingFactor(600)).toBeLessThan(reminderTimingFactor(240));
    expect(reminderTimingFactor(-120)).toBe(0);
  });

  it('reads messages that arrive at night on waking, and reads others soon after', () => {
    const stream = createRandomStream(1, 0, 'messaging');
    for (let draw = 0; draw < 200; draw += 1) {
      const night = drawReadMinute(stream, { deliveredMinute: 200, wakeMinute: 420, busyAtWork: false });
      expect(night).toBeGreaterThanOrEqual(420);
      expect(night).toBeLessThan(450);
      const late = drawReadMinute(stream, { deliveredMinute: 23 * 60 + 30, wakeMinute: 420, busyAtWork: false });
      expect(late).toBeGreaterThanOrEqual(1440 + 420);
      expect(drawReadMinute(stream, { deliveredMinute: 600, wakeMinute: 420, busyAtWork: false })).toBeGreaterThanOrEqual(600);
    }
  });
});

describe('burden and engagement', () => {
  const base = { propensity: 1, messagesLast7Days: 1, messagesReceived: 100, sentMinute: 600, framingFit: 1 };

  it('makes STOP likelier with more messages a week, at night, early on, and with an ill-fitting framing', () => {
    const reference = optOutProbability(base);
    expect(optOutProbability({ ...base, messagesLast7Days: 7 })).toBeGreaterThan(2 * reference);
    expect(optOutProbability({ ...base, sentMinute: 23 * 60 })).toBeGreaterThan(reference);
    expect(optOutProbability({ ...base, messagesReceived: 1 })).toBeGreaterThan(2 * reference);
    expect(optOutProbability({ ...base, framingFit: 0.5 })).toBeGreaterThan(reference);
    expect(optOutProbability({ ...base, propensity: 2.5 })).toBeCloseTo(2.5 * reference, 12);
  });

  it('lets replies fade towards about 12% of the early rate (Klimis 2021)', () => {
    const options = { propensity: 0.4, channel: 'whatsapp' as const, category: 'reminder' as const };
    const early = replyProbability({ ...options, messagesReceived: 0 });
    const late = replyProbability({ ...options, messagesReceived: 1000 });
    expect(late / early).toBeCloseTo(0.12, 2);
    expect(replyProbability({ ...options, category: 'check-in', messagesReceived: 0 })).toBeGreaterThan(early);
  });

  it('protects against stopping more with more support, up to a ceiling', () => {
    expect(stopProtection(0)).toBe(0);
    expect(stopProtection(5)).toBeGreaterThan(stopProtection(1));
    // Support never protects fully: at most about two in three stops are prevented (calibrated to Thakkar 2016).
    expect(stopProtection(1000)).toBeLessThanOrEqual(0.65);
    expect(stopProtection(1000)).toBeGreaterThan(0.6);
  });
});
