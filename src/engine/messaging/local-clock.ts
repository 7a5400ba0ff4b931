/**
 * Wall-clock time in a zone, both ways, for rules stated in local time (quiet hours). Builds on
 * src/engine/time/local-day.ts, which turns a local day and minute into an instant, and adds what a
 * send time needs beyond it: the local minute of an instant, and the first real instant at or after a
 * wall-clock time that the clocks skip (02:30 on a spring-forward night in New York is 03:00 EDT).
 * Day numbers are days since 1970-01-01, as everywhere in the engine; instants are epoch milliseconds.
 */
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import { createLocalTimeConverter } from '@/engine/time/local-day';

export type LocalClock = { day: number; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
const toEpochSeconds = createLocalTimeConverter();

function clockFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    // Throws RangeError for a zone Intl does not know: a send time must not silently fall back to UTC.
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local day and minute of the day at an instant. */
export function localClockAt(instant: number, timeZone: string): LocalClock {
  const parts: Record<string, number> = {};
  for (const part of clockFormatter(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    day: dayNumberFromCivil(parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1),
    minute: (parts.hour ?? 0) * 60 + (parts.minute ?? 0),
  };
}

const compareClocks = (a: LocalClock, b: LocalClock) => a.day - b.day || a.minute - b.minute;
const msPerMinute = 60_000;

/**
 * The first instant whose local wall-clock time is at or after `minute` of `day`: the time itself on
 * ordinary days, its first occurrence when the clocks go back and repeat it, and the moment the clocks
 * jump when they skip it.
 */
export function firstInstantAtLocalTime(timeZone: string, day: number, minute: number): number {
  clockFormatter(timeZone);
  const target: LocalClock = { day, minute };
  const guess = toEpochSeconds(timeZone, day, minute) * 1000;
  if (compareClocks(localClockAt(guess, timeZone), target) === 0) {
    // Repeated when the clocks went back (by an hour, or 30 minutes on Lord Howe Island): take the first.
    for (const back of [60, 30]) {
      const earlier = guess - back * msPerMinute;
      if (compareClocks(localClockAt(earlier, timeZone), target) === 0) return earlier;
    }
    return guess;
  }
  // Skipped: search the few hours around the guess, where local time only moves forwards.
  let low = Math.floor(guess / msPerMinute) - 4 * 60;
  let high = low + 8 * 60;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (compareClocks(localClockAt(middle * msPerMinute, timeZone), target) >= 0) high = middle;
    else low = middle + 1;
  }
  return low * msPerMinute;
}
