/** Calendar helpers on integer day numbers (days since 1970-01-01, a Thursday). */

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function isWeekend(weekday: number): boolean {
  return weekday === 0 || weekday === 6;
}

export const minutesPerDay = 1440;

/**
 * Months of a simulation as 12 equal slices of a year (365 / 12 days each, boundaries rounded down), so a
 * 365-day run has exactly 12 months. Returns the first day index of each full month plus the end of the
 * last one; days after the last full month belong to no month.
 */
export function monthBoundaries(days: number): number[] {
  const fullMonths = Math.floor((days * 12) / 365);
  const boundaries: number[] = [];
  for (let month = 0; month <= fullMonths; month += 1) boundaries.push(Math.floor((month * 365) / 12));
  return boundaries;
}
