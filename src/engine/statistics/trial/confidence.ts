/**
 * The trial's one confidence level (the analysis plan's 95%, two-sided) and the checks the functions share.
 * Functions throw RangeError on input that is not data (a count above its total, an empty group), so a caller's
 * bug never turns into a plausible-looking number.
 */
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/** Two-sided 95%: the upper 2.5% point. */
export const upperTail = 0.975;

/** z for a two-sided 95% interval (scipy's stats.norm.ppf(0.975)). */
export const z95 = normalQuantile(upperTail, 0, 1);

/** t for a two-sided 95% interval with `df` degrees of freedom (df need not be whole: Welch). */
export function t95(df: number): number {
  return tQuantile(upperTail, df);
}

/** Counts of a two-group binary outcome: group 1 (intervention) x1 of n1, group 2 (control) x2 of n2. */
export type TwoGroupCounts = { x1: number; n1: number; x2: number; n2: number };

export function checkCount(x: number, n: number, name = 'x', totalName = 'n'): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`${totalName} must be a whole number ≥ 1 (got ${n})`);
  if (!Number.isInteger(x) || x < 0 || x > n) throw new RangeError(`${name} must be a whole number in [0, ${n}] (got ${x})`);
}

export function checkCounts({ x1, n1, x2, n2 }: TwoGroupCounts): void {
  checkCount(x1, n1, 'x1', 'n1');
  checkCount(x2, n2, 'x2', 'n2');
}

export function checkFinite(values: readonly number[], name: string): void {
  values.forEach((value, index) => {
    if (!Number.isFinite(value)) throw new RangeError(`${name}[${index}] must be a finite number (got ${value})`);
  });
}
