/**
 * The one place where an instant and a time zone become a local calendar day (a day number, days since
 * 1970-01-01, as in day-number.ts) and back. The simulator keeps times as local day numbers and minutes
 * in each patient's time zone; the database stores instants; pages show doses on the patient's own
 * calendar days. Conversions are exact across daylight-saving changes, and Intl formatters are made once
 * per zone: these run for about a million records. Pure: Intl's time-zone data is not I/O.
 */
import { dayNumberFromCivil } from '@/engine/adherence/day-number';

const secondsPerDay = 86_400;
export const MS_PER_DAY = secondsPerDay * 1000;
/** No zone is further than 14 hours from UTC. */
const widestOffsetSeconds = 14 * 3600;

function offsetFormatter(timezone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-GB', { timeZone: timezone, timeZoneName: 'longOffset' });
}

/** Offset of the zone from UTC at an instant, in seconds ("GMT+01:00" → 3600). */
function offsetSeconds(formatter: Intl.DateTimeFormat, epochSeconds: number): number {
  const name = formatter.formatToParts(new Date(epochSeconds * 1000)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (match === null) return 0;
  const seconds = Number(match[2]) * 3600 + Number(match[3]) * 60;
  return match[1] === '-' ? -seconds : seconds;
}

export type LocalTimeConverter = (timezone: string, day: number, minute: number) => number;

/** Returns a function from (zone, local day number, local minute) to Unix epoch seconds. */
export function createLocalTimeConverter(): LocalTimeConverter {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  // Per zone and day: the offset when it holds all day, or null on a day the clocks change.
  const dayOffsets = new Map<string, Map<number, number | null>>();
  return (timezone, day, minute) => {
    let formatter = formatters.get(timezone);
    if (formatter === undefined) {
      formatter = offsetFormatter(timezone);
      formatters.set(timezone, formatter);
      dayOffsets.set(timezone, new Map());
    }
    const offsets = dayOffsets.get(timezone)!;
    const wallClockSeconds = day * secondsPerDay + minute * 60;
    let offset = offsets.get(day);
    if (offset === undefined) {
      const before = offsetSeconds(formatter, day * secondsPerDay - widestOffsetSeconds);
      const after = offsetSeconds(formatter, (day + 1) * secondsPerDay + widestOffsetSeconds);
      offset = before === after ? before : null;
      offsets.set(day, offset);
    }
    if (offset !== null) return wallClockSeconds - offset;
    // The clocks change this day: take the offset in force at the instant itself (two steps settle it).
    const guess = wallClockSeconds - offsetSeconds(formatter, wallClockSeconds);
    return wallClockSeconds - offsetSeconds(formatter, guess);
  };
}

/** The UTC calendar day of an instant. */
export function utcDayNumber(instant: Date | number): number {
  return Math.floor((typeof instant === 'number' ? instant : instant.getTime()) / MS_PER_DAY);
}

/** A formatter of calendar dates in a zone, or null for no zone or one Intl does not know. */
function dateFormatter(timeZone: string): Intl.DateTimeFormat | null {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' });
  } catch {
    return null;
  }
}

export type LocalDayResolver = (instant: Date, timeZone: string | null) => number;

/**
 * Returns a function from (instant, zone) to the local calendar day there; no zone, an empty one or an
 * unknown one counts as UTC (imported records without a zone are read as UTC, never rejected).
 */
export function createLocalDayResolver(): LocalDayResolver {
  const formatters = new Map<string, Intl.DateTimeFormat | null>();
  return (instant, timeZone) => {
    if (timeZone === null || timeZone === '') return utcDayNumber(instant);
    let formatter = formatters.get(timeZone);
    if (formatter === undefined) {
      formatter = dateFormatter(timeZone);
      formatters.set(timeZone, formatter);
    }
    if (formatter === null) return utcDayNumber(instant);
    // Parts rather than the formatted string: independent of the locale's separators.
    let year = 0;
    let month = 0;
    let day = 0;
    for (const part of formatter.formatToParts(instant)) {
      if (part.type === 'year') year = Number(part.value);
      else if (part.type === 'month') month = Number(part.value);
      else if (part.type === 'day') day = Number(part.value);
    }
    return dayNumberFromCivil(year, month, day);
  };
}

/** The local calendar day of one instant in a zone (UTC when none or unknown); for many, use createLocalDayResolver. */
export function localDayNumber(instant: Date, timeZone: string | null): number {
  return createLocalDayResolver()(instant, timeZone);
}
