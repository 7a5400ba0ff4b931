import { describe, expect, it } from 'vitest';
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import { firstInstantAtLocalTime, localClockAt } from './local-clock';
import { defaultQuietHours, isQuietMinute, nextAllowedSendTime, planSendTime } from './quiet-hours';

const at = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();
const newYork = 'America/New_York';

describe('isQuietMinute', () => {
  it('defaults to 21:00–08:00, wrapping midnight, start inclusive and end exclusive', () => {
    expect(defaultQuietHours).toEqual({ startMinute: 1260, endMinute: 480 });
    expect([0, 7 * 60 + 59, 8 * 60, 12 * 60, 20 * 60 + 59, 21 * 60, 23 * 60 + 59].map((minute) => isQuietMinute(minute))).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
      true,
    ]);
  });

  it('takes a window that does not wrap, and none when start equals end; refuses minutes outside the day', () => {
    const siesta = { startMinute: 14 * 60, endMinute: 16 * 60 };
    expect([13 * 60, 14 * 60, 15 * 60 + 59, 16 * 60].map((minute) => isQuietMinute(minute, siesta))).toEqual([false, true, true, false]);
    expect(isQuietMinute(3 * 60, { startMinute: 600, endMinute: 600 })).toBe(false);
    expect(() => isQuietMinute(0, { startMinute: 1440, endMinute: 480 })).toThrow(/startMinute/);
    expect(() => isQuietMinute(0, { startMinute: 1260, endMinute: 7.5 })).toThrow(/endMinute/);
  });
});

describe('localClockAt and firstInstantAtLocalTime', () => {
  it('read the wall clock in the zone, and refuse an unknown zone rather than fall back to UTC', () => {
    expect(localClockAt(at('2026-03-08T07:00:00Z'), newYork)).toEqual({ day: dayNumberFromCivil(2026, 3, 8), minute: 3 * 60 });
    expect(localClockAt(at('2026-03-08T06:59:00Z'), newYork)).toEqual({ day: dayNumberFromCivil(2026, 3, 8), minute: 60 + 59 });
    expect(() => localClockAt(0, 'Mars/Olympus_Mons')).toThrow(RangeError);
  });

  it('move a skipped wall-clock time to the moment the clocks jump, and take the first of a repeated one', () => {
    // New York springs forward at 02:00 EST on 8 March 2026 (07:00Z) and falls back at 02:00 EDT on 1 November (06:00Z).
    expect(iso(firstInstantAtLocalTime(newYork, dayNumberFromCivil(2026, 3, 8), 2 * 60 + 30))).toBe('2026-03-08T07:00:00.000Z');
    expect(iso(firstInstantAtLocalTime(newYork, dayNumberFromCivil(2026, 11, 1), 60 + 30))).toBe('2026-11-01T05:30:00.000Z');
    // Lord Howe Island falls back by 30 minutes (02:00 +11 → 01:30 +10:30) on 5 April 2026.
    expect(iso(firstInstantAtLocalTime('Australia/Lord_Howe', dayNumberFromCivil(2026, 4, 5), 60 + 45))).toBe('2026-04-04T14:45:00.000Z');
    // Chile springs forward at midnight: 00:30 on 6 September 2026 does not exist; 01:00 −03 is 04:00Z.
    expect(iso(firstInstantAtLocalTime('America/Santiago', dayNumberFromCivil(2026, 9, 6), 30))).toBe('2026-09-06T04:00:00.000Z');
  });
});

describe('nextAllowedSendTime', () => {
  it('returns the instant itself outside quiet hours', () => {
    expect(iso(nextAllowedSendTime(at('2026-06-01T16:00:00Z'), newYork))).toBe('2026-06-01T16:00:00.000Z');
  });

  it('waits for 08:00 the next local morning from an evening, and the same morning after midnight', () => {
    expect(iso(nextAllowedSendTime(at('2026-06-02T01:30:00Z'), newYork))).toBe('2026-06-02T12:00:00.000Z'); // 21:30 EDT
    expect(iso(nextAllowedSendTime(at('2026-06-02T09:00:00Z'), newYork))).toBe('2026-06-02T12:00:00.000Z'); // 05:00 EDT
    expect(iso(nextAllowedSendTime(at('2026-03-10T20:00:00Z'), 'Asia/Tokyo'))).toBe('2026-03-10T23:00:00.000Z'); // 05:00 JST
  });

  it('is exact across the night the clocks change in New York and London', () => {
    // 22:00 EST on 7 March → 08:00 EDT on 8 March (12:00Z, not 13:00Z).
    expect(iso(nextAllowedSendTime(at('2026-03-08T03:00:00Z'), newYork))).toBe('2026-03-08T12:00:00.000Z');
    // 01:30 EST, half an hour before the jump → still 08:00 EDT.
    expect(iso(nextAllowedSendTime(at('2026-03-08T06:30:00Z'), newYork))).toBe('2026-03-08T12:00:00.000Z');
    // 23:00 EDT on 31 October → 08:00 EST on 1 November (13:00Z).
    expect(iso(nextAllowedSendTime(at('2026-11-01T03:00:00Z'), newYork))).toBe('2026-11-01T13:00:00.000Z');
    // 01:30 EST, the second 01:30 of the night → 08:00 EST.
    expect(iso(nextAllowedSendTime(at('2026-11-01T06:30:00Z'), newYork))).toBe('2026-11-01T13:00:00.000Z');
    // 23:00 GMT on 28 March 2026 → 08:00 BST on 29 March (07:00Z).
    expect(iso(nextAllowedSendTime(at('2026-03-28T23:00:00Z'), 'Europe/London'))).toBe('2026-03-29T07:00:00.000Z');
  });

  it('ends quiet hours configured to end inside the skipped hour at the jump', () => {
    const quiet = { startMinute: 21 * 60, endMinute: 2 * 60 + 30 };
    expect(iso(nextAllowedSendTime(at('2026-03-08T06:00:00Z'), newYork, quiet))).toBe('2026-03-08T07:00:00.000Z'); // 01:00 EST → 03:00 EDT
    const fallBack = { startMinute: 21 * 60, endMinute: 60 + 30 };
    expect(iso(nextAllowedSendTime(at('2026-11-01T04:30:00Z'), newYork, fallBack))).toBe('2026-11-01T05:30:00.000Z'); // first 01:30
  });

  it('keeps a daytime quiet window on the same day', () => {
    const siesta = { startMinute: 14 * 60, endMinute: 16 * 60 };
    expect(iso(nextAllowedSendTime(at('2026-06-01T12:30:00Z'), 'Europe/Madrid', siesta))).toBe('2026-06-01T14:00:00.000Z'); // 14:30 CEST → 16:00
  });
});

describe('planSendTime', () => {
  const day = dayNumberFromCivil(2026, 3, 8);

  it('sends at the chosen local time when it is allowed and has not passed', () => {
    expect(planSendTime({ timeZone: newYork, day, minute: 9 * 60, notBefore: at('2026-03-08T05:00:00Z') })).toEqual({
      sendAt: at('2026-03-08T13:00:00Z'),
      moved: null,
    });
  });

  it('moves a time in quiet hours to their end, and a past time to now', () => {
    expect(planSendTime({ timeZone: newYork, day, minute: 7 * 60, notBefore: at('2026-03-08T05:00:00Z') })).toEqual({
      sendAt: at('2026-03-08T12:00:00Z'),
      moved: 'quiet-hours',
    });
    expect(planSendTime({ timeZone: newYork, day, minute: 22 * 60, notBefore: 0 })).toEqual({
      sendAt: at('2026-03-09T12:00:00Z'),
      moved: 'quiet-hours',
    });
    expect(planSendTime({ timeZone: newYork, day, minute: 9 * 60, notBefore: at('2026-03-08T15:00:00Z') })).toEqual({
      sendAt: at('2026-03-08T15:00:00Z'),
      moved: 'not-before',
    });
    expect(
      planSendTime({
        timeZone: newYork,
        day,
        minute: 9 * 60,
        notBefore: at('2026-03-08T05:00:00Z'),
        quietHours: { startMinute: 0, endMinute: 10 * 60 },
      }),
    ).toEqual({ sendAt: at('2026-03-08T14:00:00Z'), moved: 'quiet-hours' });
  });
});
