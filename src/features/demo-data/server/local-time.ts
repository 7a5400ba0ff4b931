/**
 * The simulator keeps times as local day numbers and minutes in each patient's time zone; the database
 * stores instants. Converts one to the other exactly (daylight-saving changes included), asking Intl for
 * a zone's offset only once per zone and day: this runs for about a million records.
 */
import 'server-only';

const secondsPerDay = 86_400;
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
