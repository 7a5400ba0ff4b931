/**
 * A per-patient cap on proactive messages over rolling windows (replies to the patient's own messages,
 * such as a HELP answer, are not counted by the caller). Burden drives opt-outs: beyond two messages in
 * seven days each one adds to the chance of STOP (the simulator's `optOut`), so the defaults allow a
 * daily programme (one a day, at a time that may move from evening to morning: two in 24 h) and no more
 * than eight in seven days.
 */

export type FrequencyCap = { maxMessages: number; windowMs: number };

const hourMs = 60 * 60 * 1000;
export const defaultFrequencyCaps: readonly FrequencyCap[] = [
  { maxMessages: 2, windowMs: 24 * hourMs },
  { maxMessages: 8, windowMs: 7 * 24 * hourMs },
];

export type FrequencyCapCheck =
  | { allowed: true }
  /** `nextAllowedAt`: when enough messages have left the windows, if no other is sent meanwhile. */
  | { allowed: false; exceeded: readonly FrequencyCap[]; nextAllowedAt: number };

/** Whether one more message may go at `now`, given when earlier ones went (or are scheduled). */
export function checkFrequencyCap(options: { now: number; sentAt: readonly number[]; caps?: readonly FrequencyCap[] }): FrequencyCapCheck {
  const { now } = options;
  const caps = options.caps ?? defaultFrequencyCaps;
  const exceeded: FrequencyCap[] = [];
  let nextAllowedAt = now;
  for (const cap of caps) {
    if (!Number.isInteger(cap.maxMessages) || cap.maxMessages < 1 || !(cap.windowMs > 0))
      throw new RangeError('A frequency cap needs maxMessages ≥ 1 and a positive windowMs.');
    // The window is (now − windowMs, now]; a message scheduled later already counts against it.
    const inWindow = options.sentAt.filter((instant) => instant > now - cap.windowMs).sort((a, b) => a - b);
    if (inWindow.length < cap.maxMessages) continue;
    exceeded.push(cap);
    // Sending is allowed again once all but maxMessages − 1 of them have left the window.
    nextAllowedAt = Math.max(nextAllowedAt, (inWindow[inWindow.length - cap.maxMessages] ?? now) + cap.windowMs);
  }
  return exceeded.length === 0 ? { allowed: true } : { allowed: false, exceeded, nextAllowedAt };
}
