import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

function zValues(alpha: number, power: number): { zAlpha: number; zBeta: number } {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1) (got ${alpha})`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1) (got ${power})`);
  return { zAlpha: normalQuantile(1 - alpha / 2, 0, 1), zBeta: normalQuantile(power, 0, 1) };
}

/**
 * Participants per arm to detect p1 vs p2 with a two-sided test at `alpha` and the given power (Fleiss, Levin &
 * Paik: pooled variance under the null, separate under the alternative), and with Fleiss' continuity
 * correction n/4·(1 + √(1 + 4/(n·|p1 − p2|)))². Unrounded: the caller rounds up.
 */
export function sampleSizeTwoProportions({
  p1,
  p2,
  alpha = 0.05,
  power = 0.8,
}: {
  p1: number;
  p2: number;
  alpha?: number;
  power?: number;
}): { n: number; nContinuityCorrected: number } {
  for (const [name, value] of [
    ['p1', p1],
    ['p2', p2],
  ] as const) {
    if (!(value >= 0 && value <= 1)) throw new RangeError(`${name} must be a proportion in [0, 1] (got ${value})`);
  }
  if (p1 === p2) throw new RangeError('p1 and p2 must differ: no sample size detects a difference of 0');
  const { zAlpha, zBeta } = zValues(alpha, power);
  const pooled = (p1 + p2) / 2;
  const delta = Math.abs(p1 - p2);
  const n = (zAlpha * Math.sqrt(2 * pooled * (1 - pooled)) + zBeta * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / delta ** 2;
  return { n, nContinuityCorrected: (n / 4) * (1 + Math.sqrt(1 + 4 / (n * delta))) ** 2 };
}

/** Participants per arm to detect a difference `delta` in means with common SD `sd` (normal approximation). */
export function sampleSizeTwoMeans({
  sd,
  delta,
  alpha = 0.05,
  power = 0.8,
}: {
  sd: number;
  delta: number;
  alpha?: number;
  power?: number;
}): { n: number } {
  if (!(sd > 0) || !Number.isFinite(sd)) throw new RangeError(`sd must be a number > 0 (got ${sd})`);
  if (!(delta !== 0) || !Number.isFinite(delta)) throw new RangeError(`delta must be a non-zero number (got ${delta})`);
  const { zAlpha, zBeta } = zValues(alpha, power);
  return { n: (2 * (zAlpha + zBeta) ** 2 * sd ** 2) / delta ** 2 };
}
