import type { Interval } from './types';
import { checkCounts, z95, type TwoGroupCounts } from './confidence';

/**
 * Risk ratio p1 / p2 (group 1 = intervention) with Katz's log-scale 95% interval,
 * SE(log RR) = √(1/x1 − 1/n1 + 1/x2 − 1/n2). Zero cells: with no events in either group the ratio or its log
 * is undefined, so the result is null (no continuity correction is added: the page says "not estimable").
 */
export function riskRatio(counts: TwoGroupCounts): Interval | null {
  checkCounts(counts);
  const { x1, n1, x2, n2 } = counts;
  if (x1 === 0 || x2 === 0) return null;
  const estimate = x1 / n1 / (x2 / n2);
  const se = Math.sqrt(1 / x1 - 1 / n1 + 1 / x2 - 1 / n2);
  return logScaleInterval(estimate, se);
}

/**
 * Odds ratio (x1·(n2 − x2)) / ((n1 − x1)·x2) with Woolf's log-scale 95% interval, SE = √(Σ 1/cell). Zero cells:
 * any empty cell makes the estimate 0 or ∞ and Woolf's SE infinite, so the result is null (no Haldane 0.5 added).
 */
export function oddsRatio(counts: TwoGroupCounts): Interval | null {
  checkCounts(counts);
  const { x1, n1, x2, n2 } = counts;
  const cells = [x1, n1 - x1, x2, n2 - x2] as const;
  if (cells.some((cell) => cell === 0)) return null;
  const [a, b, c, d] = cells;
  const estimate = (a * d) / (b * c);
  const se = Math.sqrt(1 / a + 1 / b + 1 / c + 1 / d);
  return logScaleInterval(estimate, se);
}

function logScaleInterval(estimate: number, se: number): Interval {
  return { estimate, ciLow: estimate * Math.exp(-z95 * se), ciHigh: estimate * Math.exp(z95 * se) };
}
