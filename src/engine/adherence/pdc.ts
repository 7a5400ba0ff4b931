/**
 * Proportion of days covered (Pharmacy Quality Alliance rules): overlapping fills of the same drug are
 * shifted forward (an early refill starts when the previous supply of that drug runs out), while fills
 * of different drugs are not shifted and a day counts once if any drug covers it (union).
 */

export type PdcFill = { day: number; daysSupply: number; drug: string };

export type PdcResult = { coveredDays: number; periodDays: number; pdc: number };

export type PdcOptions = {
  fills: readonly PdcFill[];
  /** First day of the period. */
  periodStart: number;
  /** Day after the last day of the period (end exclusive). */
  periodEnd: number;
  /**
   * Whether supply from fills dated before `periodStart` still covers days of the period (default true).
   * PQA's own measure starts the period at the first fill in it, so there is nothing to carry in.
   */
  carryIn?: boolean;
};

/** A covered stretch of days, [start, end). */
type Coverage = { start: number; end: number };

/**
 * PQA proportion of days covered over [periodStart, periodEnd) (end exclusive): fills of the same drug
 * shift forward (early refills carry over), coverage is the union across drugs; fills before the period
 * carry their remaining supply in.
 */
export function computePdc(options: PdcOptions): PdcResult {
  const { fills, periodStart, periodEnd } = options;
  const carryIn = options.carryIn ?? true;
  const periodDays = periodEnd - periodStart;
  if (!(periodDays > 0)) throw new RangeError(`PDC period is empty: [${periodStart}, ${periodEnd})`);

  const fillsByDrug = new Map<string, PdcFill[]>();
  for (const fill of fills) {
    if (fill.day >= periodEnd || (!carryIn && fill.day < periodStart)) continue;
    const sameDrug = fillsByDrug.get(fill.drug);
    if (sameDrug === undefined) fillsByDrug.set(fill.drug, [fill]);
    else sameDrug.push(fill);
  }

  const coverages: Coverage[] = [];
  for (const drugFills of fillsByDrug.values()) {
    // Array.prototype.sort is stable, so same-day fills keep their input order (it does not matter here:
    // same-day fills of one drug simply queue up).
    drugFills.sort((left, right) => left.day - right.day);
    let suppliedUntil = -Infinity;
    for (const fill of drugFills) {
      const start = Math.max(fill.day, suppliedUntil);
      const end = start + Math.max(0, fill.daysSupply);
      suppliedUntil = end;
      const clippedStart = Math.max(start, periodStart);
      const clippedEnd = Math.min(end, periodEnd);
      if (clippedEnd > clippedStart) coverages.push({ start: clippedStart, end: clippedEnd });
    }
  }

  const coveredDays = unionLength(coverages);
  return { coveredDays, periodDays, pdc: coveredDays / periodDays };
}

/** Total length of the union of half-open stretches (sorts its argument). */
function unionLength(coverages: Coverage[]): number {
  coverages.sort((left, right) => left.start - right.start);
  let total = 0;
  let currentStart = -Infinity;
  let currentEnd = -Infinity;
  for (const coverage of coverages) {
    if (coverage.start > currentEnd) {
      if (currentEnd > currentStart) total += currentEnd - currentStart;
      currentStart = coverage.start;
      currentEnd = coverage.end;
    } else if (coverage.end > currentEnd) {
      currentEnd = coverage.end;
    }
  }
  if (currentEnd > currentStart) total += currentEnd - currentStart;
  return total;
}
