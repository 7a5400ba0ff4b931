import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';
import { checkCounts, type TwoGroupCounts } from './confidence';

/**
 * Pearson's χ² test of independence for the 2 × 2 table [[x1, n1 − x1], [x2, n2 − x2]] (1 df), with or without
 * Yates' continuity correction as scipy's `chi2_contingency(table, correction=…)` applies it: each |O − E| is
 * reduced by 0.5, but never past 0. A zero margin (no events, or all events, in both groups together) gives an
 * expected count of 0 and leaves the test undefined: statistic and p are NaN (scipy refuses, R gives NaN).
 */
export function chiSquareTest(counts: TwoGroupCounts, { yates }: { yates: boolean }): { statistic: number; p: number } {
  checkCounts(counts);
  const { x1, n1, x2, n2 } = counts;
  const total = n1 + n2;
  const events = x1 + x2;
  if (events === 0 || events === total) return { statistic: NaN, p: NaN };
  const observed = [x1, n1 - x1, x2, n2 - x2];
  const rows = [n1, n1, n2, n2];
  const columns = [events, total - events, events, total - events];
  let statistic = 0;
  observed.forEach((count, cell) => {
    const expected = (rows[cell]! * columns[cell]!) / total;
    const difference = Math.abs(count - expected);
    const corrected = yates ? difference - Math.min(0.5, difference) : difference;
    statistic += corrected ** 2 / expected;
  });
  return { statistic, p: 1 - chisquareCdf(statistic, 1) };
}
