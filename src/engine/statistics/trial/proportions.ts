import type { Interval } from './types';
import { checkCount, checkCounts, z95, type TwoGroupCounts } from './confidence';

/**
 * Wilson score 95% interval for x events in n (statsmodels' proportion_confint(method='wilson')). Chosen over
 * the Wald interval because it keeps its coverage near 0 and 1, where adherence shares sit.
 */
export function wilsonInterval(x: number, n: number): [number, number] {
  checkCount(x, n);
  const p = x / n;
  const zz = z95 * z95;
  const denominator = 1 + zz / n;
  const middle = (p + zz / (2 * n)) / denominator;
  const half = (z95 * Math.sqrt((p * (1 - p)) / n + zz / (4 * n * n))) / denominator;
  // At x = 0 or x = n the limit is 0 or 1 mathematically; rounding must not put it a hair outside.
  return [Math.max(0, middle - half), Math.min(1, middle + half)];
}

/**
 * p1 − p2 (group 1 = intervention) with Newcombe's hybrid score 95% interval (method 10, from the two Wilson
 * intervals), defined even when a group has no events.
 */
export function newcombeDifference(counts: TwoGroupCounts): Interval {
  checkCounts(counts);
  const { x1, n1, x2, n2 } = counts;
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const [low1, high1] = wilsonInterval(x1, n1);
  const [low2, high2] = wilsonInterval(x2, n2);
  const estimate = p1 - p2;
  return {
    estimate,
    ciLow: estimate - Math.sqrt((p1 - low1) ** 2 + (high2 - p2) ** 2),
    ciHigh: estimate + Math.sqrt((high1 - p1) ** 2 + (p2 - low2) ** 2),
  };
}
