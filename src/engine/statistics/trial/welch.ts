import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { checkFinite, t95 } from './confidence';
import { meanAndVariance } from './mean-interval';

export type WelchResult = { estimate: number; se: number; df: number; t: number; p: number; ciLow: number; ciHigh: number };

/**
 * Welch's unequal-variance t test of mean(intervention) − mean(control), as scipy's
 * `ttest_ind(intervention, control, equal_var=False)`: Welch–Satterthwaite df, two-sided p, 95% t interval.
 * When neither group varies (se = 0) the test is undefined and t, df, p and the limits are NaN, as scipy gives.
 */
export function welchTest({ intervention, control }: { intervention: readonly number[]; control: readonly number[] }): WelchResult {
  if (intervention.length < 2 || control.length < 2)
    throw new RangeError(`Welch's test needs at least 2 values per group (got ${intervention.length} and ${control.length})`);
  checkFinite(intervention, 'intervention');
  checkFinite(control, 'control');
  const a = meanAndVariance(intervention);
  const b = meanAndVariance(control);
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const estimate = a.mean - b.mean;
  const se = Math.sqrt(va + vb);
  if (se === 0) return { estimate, se, df: NaN, t: NaN, p: NaN, ciLow: NaN, ciHigh: NaN };
  // Welch–Satterthwaite (va + vb)² / (va²/(na − 1) + vb²/(nb − 1)), written with shares of the variance so tiny
  // variances do not underflow when squared.
  const shareA = va / (va + vb);
  const shareB = vb / (va + vb);
  const df = 1 / (shareA ** 2 / (a.n - 1) + shareB ** 2 / (b.n - 1));
  const t = estimate / se;
  const half = t95(df) * se;
  return { estimate, se, df, t, p: 2 * tCdf(-Math.abs(t), df), ciLow: estimate - half, ciHigh: estimate + half };
}
