import { describe, expect, it } from 'vitest';
import { checkFrequencyCap } from './frequency-cap';

const hour = 60 * 60 * 1000;
const now = Date.parse('2026-06-01T12:00:00Z');

describe('checkFrequencyCap', () => {
  it('allows up to the cap in each rolling window (defaults: 2 in 24 h, 8 in 7 days)', () => {
    expect(checkFrequencyCap({ now, sentAt: [] })).toEqual({ allowed: true });
    expect(checkFrequencyCap({ now, sentAt: [now - 20 * hour] })).toEqual({ allowed: true });
    // A daily programme whose time moves from evening to morning: 12 hours apart, still allowed.
    expect(checkFrequencyCap({ now, sentAt: [now - 36 * hour, now - 12 * hour] })).toEqual({ allowed: true });
  });

  it('refuses over a cap and says when sending is next allowed', () => {
    const refused = checkFrequencyCap({ now, sentAt: [now - 20 * hour, now - 3 * hour] });
    expect(refused).toEqual({ allowed: false, exceeded: [{ maxMessages: 2, windowMs: 24 * hour }], nextAllowedAt: now + 4 * hour });
    // Eight in the last week, one a day at most: the weekly cap binds until the oldest leaves the window.
    const week = Array.from({ length: 8 }, (_, index) => now - (6.5 - index * 0.8) * 24 * hour);
    const weekly = checkFrequencyCap({ now, sentAt: week });
    expect(weekly.allowed).toBe(false);
    if (!weekly.allowed) {
      expect(weekly.exceeded).toEqual([{ maxMessages: 8, windowMs: 7 * 24 * hour }]);
      expect(weekly.nextAllowedAt).toBe(now + 0.5 * 24 * hour);
    }
  });

  it('ignores messages that have left the window and counts scheduled ones; takes custom caps; refuses a bad cap', () => {
    const caps = [{ maxMessages: 1, windowMs: 6 * hour }];
    expect(checkFrequencyCap({ now, sentAt: [now - 6 * hour], caps })).toEqual({ allowed: true });
    expect(checkFrequencyCap({ now, sentAt: [now + hour], caps })).toEqual({
      allowed: false,
      exceeded: caps,
      nextAllowedAt: now + 7 * hour,
    });
    expect(() => checkFrequencyCap({ now, sentAt: [], caps: [{ maxMessages: 0, windowMs: hour }] })).toThrow(RangeError);
  });
});
