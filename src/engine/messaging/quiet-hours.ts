/**
 * Quiet hours: no message between `startMinute` and `endMinute` local time (default 21:00–08:00, wrapping
 * midnight). A message due in them waits for the end, on the right local day, in the patient's zone,
 * across daylight-saving changes.
 */
import { firstInstantAtLocalTime, localClockAt } from './local-clock';

export type QuietHours = {
  /** Local minute after midnight at which quiet starts (inclusive). */
  startMinute: number;
  /** Local minute at which sending may resume (exclusive end of quiet). Equal to start: no quiet hours. */
  endMinute: number;
};

export const defaultQuietHours: QuietHours = { startMinute: 21 * 60, endMinute: 8 * 60 };

function checkQuietHours(quiet: QuietHours): void {
  for (const [name, value] of [
    ['startMinute', quiet.startMinute],
    ['endMinute', quiet.endMinute],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value >= 1440)
      throw new RangeError(`Quiet hours ${name} must be a whole minute from 0 to 1439, not ${value}.`);
  }
}

export function isQuietMinute(minute: number, quiet: QuietHours = defaultQuietHours): boolean {
  checkQuietHours(quiet);
  const { startMinute, endMinute } = quiet;
  if (startMinute === endMinute) return false;
  return startMinute < endMinute ? minute >= startMinute && minute < endMinute : minute >= startMinute || minute < endMinute;
}

/** The instant itself when it is outside quiet hours in the zone, else the first instant at which they end. */
export function nextAllowedSendTime(instant: number, timeZone: string, quiet: QuietHours = defaultQuietHours): number {
  const { day, minute } = localClockAt(instant, timeZone);
  if (!isQuietMinute(minute, quiet)) return instant;
  // Quiet that wraps midnight and began this evening ends tomorrow; otherwise it ends today.
  const endDay = quiet.startMinute > quiet.endMinute && minute >= quiet.startMinute ? day + 1 : day;
  return Math.max(instant, firstInstantAtLocalTime(timeZone, endDay, quiet.endMinute));
}

export type PlannedSend = {
  sendAt: number;
  /** Why it is not at the chosen local time: quiet hours, or the chosen time had passed (`notBefore`). */
  moved: 'quiet-hours' | 'not-before' | null;
};

/**
 * When to send a message a policy timed for `minute` of local `day`: that time, or `notBefore` (now) if
 * it has passed, moved out of quiet hours.
 */
export function planSendTime(options: {
  timeZone: string;
  day: number;
  minute: number;
  notBefore: number;
  quietHours?: QuietHours;
}): PlannedSend {
  const chosen = firstInstantAtLocalTime(options.timeZone, options.day, options.minute);
  const earliest = Math.max(chosen, options.notBefore);
  const sendAt = nextAllowedSendTime(earliest, options.timeZone, options.quietHours ?? defaultQuietHours);
  return { sendAt, moved: sendAt !== earliest ? 'quiet-hours' : earliest !== chosen ? 'not-before' : null };
}
