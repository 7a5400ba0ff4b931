import hypergeometricPmf from '@stdlib/stats-base-dists-hypergeometric-pmf';
import { checkCounts, type TwoGroupCounts } from './confidence';

/**
 * Tables within this relative margin of the observed table's probability count as equally likely. scipy
 * (1.17) uses 1 + 1e-14 with an exact-to-the-ulp pmf; stdlib's pmf goes through log-factorials, accurate to
 * about 1e-12 relative at a few hundred participants, so ties that are exact on paper (balanced arms) would
 * be missed at 1e-14. R's fisher.test uses 1 + 1e-7 for the same reason; so do we.
 */
const relativeTolerance = 1 + 1e-7;

/**
 * Fisher's exact test, two-sided, for the 2 × 2 table [[x1, n1 − x1], [x2, n2 − x2]]: the sum of the
 * probabilities of all tables with the observed margins that are no more likely than the observed one
 * (scipy's `fisher_exact(table).pvalue`). With a zero margin every table is the observed one: p = 1.
 */
export function fisherExactP(counts: TwoGroupCounts): number {
  checkCounts(counts);
  const { x1, n1, x2, n2 } = counts;
  const total = n1 + n2;
  const events = x1 + x2;
  // x1 is hypergeometric: `events` draws from `total` of which n1 are group 1.
  const pmf = (k: number) => hypergeometricPmf(k, total, n1, events);
  const observed = pmf(x1) * relativeTolerance;
  let p = 0;
  for (let k = Math.max(0, events - n2); k <= Math.min(n1, events); k += 1) {
    const probability = pmf(k);
    if (probability <= observed) p += probability;
  }
  return Math.min(1, p);
}
