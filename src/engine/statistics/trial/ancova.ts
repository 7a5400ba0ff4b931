import tCdf from '@stdlib/stats-base-dists-t-cdf';
import { Matrix, QrDecomposition, inverse } from 'ml-matrix';
import { checkFinite, t95 } from './confidence';

export type AncovaResult = { estimate: number; se: number; df: number; ciLow: number; ciHigh: number; p: number };

/**
 * ANCOVA as ordinary least squares of outcome ~ 1 + arm + baseline (arm 1 = intervention): the arm coefficient
 * with its classical standard error (s²·(XᵀX)⁻¹, df = n − 3), t-based 95% interval and two-sided p — what
 * statsmodels' OLS reports. Solved by QR, not the normal equations, for accuracy; XᵀX is inverted only for the
 * 3 × 3 covariance.
 */
export function ancova({
  outcome,
  arm,
  baseline,
}: {
  outcome: readonly number[];
  arm: readonly (0 | 1)[];
  baseline: readonly number[];
}): AncovaResult {
  const n = outcome.length;
  if (arm.length !== n || baseline.length !== n)
    throw new RangeError(`outcome, arm and baseline must have the same length (got ${n}, ${arm.length}, ${baseline.length})`);
  if (n < 4) throw new RangeError(`ANCOVA needs at least 4 participants (got ${n})`);
  checkFinite(outcome, 'outcome');
  checkFinite(baseline, 'baseline');
  arm.forEach((value, index) => {
    if (value !== 0 && value !== 1) throw new RangeError(`arm[${index}] must be 0 or 1 (got ${String(value)})`);
  });
  const design = new Matrix(outcome.map((_, index) => [1, arm[index]!, baseline[index]!]));
  const qr = new QrDecomposition(design);
  // Both arms present and a baseline that varies within them; otherwise the arm effect is not identifiable.
  // Judged on R's diagonal relative to its largest entry: rounding can leave a collinear column at 1e-17, not 0.
  const diagonal = [0, 1, 2].map((index) => Math.abs(qr.upperTriangularMatrix.get(index, index)));
  if (!qr.isFullRank() || Math.min(...diagonal) <= 1e-10 * Math.max(...diagonal))
    throw new RangeError('ANCOVA needs participants in both arms and a baseline that is not constant or a copy of the arm');
  const y = Matrix.columnVector([...outcome]);
  const beta = qr.solve(y);
  const residuals = y.sub(design.mmul(beta));
  const df = n - 3;
  const residualVariance = residuals.transpose().mmul(residuals).get(0, 0) / df;
  const covariance = inverse(design.transpose().mmul(design)).mul(residualVariance);
  const estimate = beta.get(1, 0);
  const se = Math.sqrt(covariance.get(1, 1));
  const half = t95(df) * se;
  const t = estimate / se;
  return { estimate, se, df, ciLow: estimate - half, ciHigh: estimate + half, p: 2 * tCdf(-Math.abs(t), df) };
}
