/**
 * A count over a sliding window of days (for example "messages in the previous 7 days"), updated in
 * constant time per day: a ring of per-day counts and a running total.
 */
export type RollingCount = {
  /** Per-day counts; its length is a power of two larger than the window. */
  perDay: Uint16Array;
  /** Days the window spans, including the current day. */
  windowDays: number;
  total: number;
  /** The day the window currently ends on. */
  dayIndex: number;
};

export function createRollingCount(windowDays: number): RollingCount {
  let size = 1;
  while (size <= windowDays) size *= 2;
  return { perDay: new Uint16Array(size), windowDays, total: 0, dayIndex: 0 };
}

/** Moves the window so that it ends on `dayIndex` (days only move forward). */
export function rollTo(count: RollingCount, dayIndex: number): void {
  const mask = count.perDay.length - 1;
  while (count.dayIndex < dayIndex) {
    count.dayIndex += 1;
    const leavingDay = count.dayIndex - count.windowDays;
    if (leavingDay >= 0) count.total -= count.perDay[leavingDay & mask] ?? 0;
    // The slot last held a day that left the window earlier.
    count.perDay[count.dayIndex & mask] = 0;
  }
}

export function addOnDay(count: RollingCount, dayIndex: number, amount: number): void {
  rollTo(count, dayIndex);
  const slot = dayIndex & (count.perDay.length - 1);
  count.perDay[slot] = (count.perDay[slot] ?? 0) + amount;
  count.total += amount;
}

/** Total over the window ending on `dayIndex` (that day included). */
export function totalUpTo(count: RollingCount, dayIndex: number): number {
  rollTo(count, dayIndex);
  return count.total;
}
