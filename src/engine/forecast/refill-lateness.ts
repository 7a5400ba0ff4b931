/**
 * How likely a patient who has not refilled yet still will (decision 040). For every fill whose outcome is
 * known by the as-of day, its lateness is the next fill's day minus the day the supply ran out (supply
 * carried over, as in the episode rule), or "stopped" when no fill came within the permissible gap. A
 * current patient whose supply ran out x days ago (x < 0: not due yet) refills with probability
 * q(x) = #refilled with lateness ≥ x / (#refilled with lateness ≥ x + #stopped).
 */
import { type Fill, PERMISSIBLE_GAP_DAYS } from './persistence';

/** `refilled`: lateness of each refill, ascending. */
export type RefillLateness = { refilled: ArrayLike<number>; stopped: number };

/** Day the supply runs out after each fill (sorted by day), carrying unused supply forward. */
export function supplyEnds(fills: readonly Fill[]): number[] {
  const ends: number[] = [];
  let end = -Infinity;
  for (const fill of fills) {
    end = Math.max(fill.day, end) + fill.daysSupply;
    ends.push(end);
  }
  return ends;
}

/** `histories`: each sorted by day, only fills before `asOf`. */
export function observeRefillLateness(histories: readonly (readonly Fill[])[], asOf: number): RefillLateness {
  const refilled: number[] = [];
  let stopped = 0;
  for (const fills of histories) {
    let end = -Infinity;
    for (let index = 0; index < fills.length; index += 1) {
      const fill = fills[index]!;
      end = Math.max(fill.day, end) + fill.daysSupply;
      const next = fills[index + 1];
      if (next !== undefined) {
        const lateness = next.day - end;
        if (lateness <= PERMISSIBLE_GAP_DAYS) refilled.push(lateness);
        else stopped += 1;
      } else if (end + PERMISSIBLE_GAP_DAYS < asOf) stopped += 1;
      // Otherwise the last fill's outcome is not known yet (censored): left out.
    }
  }
  // A typed array sorts numerically without a comparator call per pair (a million refills at scale).
  return { refilled: Float64Array.from(refilled).sort(), stopped };
}

/** q(x); 1 when nothing was observed (no evidence of stopping). */
export function refillProbability(lateness: RefillLateness, overdueDays: number): number {
  let low = 0;
  let high = lateness.refilled.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (lateness.refilled[middle]! < overdueDays) low = middle + 1;
    else high = middle;
  }
  const stillRefilling = lateness.refilled.length - low;
  const denominator = stillRefilling + lateness.stopped;
  return denominator === 0 ? 1 : stillRefilling / denominator;
}
