import { checkFinite, t95 } from './confidence';

/** Sample mean and variance (n − 1 denominator), two-pass for accuracy. */
export function meanAndVariance(values: readonly number[]): { n: number; mean: number; variance: number } {
  const n = values.length;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const variance = n < 2 ? NaN : values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  return { n, mean, variance };
}

/**
 * The mean with its t-based 95% interval (mean ± t(0.975, n − 1)·s/√n), e.g. weekly adherence by arm. With one
 * value there is no spread to estimate, so the interval is the mean itself; with none everything is NaN (no mean).
 */
export function meanInterval(values: readonly number[]): { n: number; mean: number; ciLow: number; ciHigh: number } {
  checkFinite(values, 'values');
  const { n, mean, variance } = meanAndVariance(values);
  if (n < 2) return { n, mean, ciLow: mean, ciHigh: mean };
  const half = t95(n - 1) * Math.sqrt(variance / n);
  return { n, mean, ciLow: mean - half, ciHigh: mean + half };
}
