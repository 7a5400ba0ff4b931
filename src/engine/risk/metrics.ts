/**
 * Discrimination and calibration of a risk score. AUC is the Mann–Whitney statistic (ties count one half);
 * its 95% CI is DeLong's (DeLong, DeLong & Clarke-Pearson 1988), computed with midranks (Sun & Xu 2014) in
 * O(n log n). DeLong treats rows as independent; patient-weeks of one patient are not, so the interval is
 * somewhat narrower than a patient-level bootstrap's would be (decision 046).
 */
export type RocPoint = { falsePositiveRate: number; truePositiveRate: number };
export type CalibrationBin = { meanPredicted: number; observedRate: number; count: number };
export type AucInterval = { auc: number; low: number; high: number; standardError: number };

function assertSameLength(scores: ArrayLike<number>, labels: ArrayLike<number>): void {
  if (scores.length !== labels.length) throw new RangeError(`scores (${scores.length}) and labels (${labels.length}) differ in length`);
}

/** 1-based midranks of `values` (tied values share their mean rank). */
function midranks(values: readonly number[]): Float64Array {
  const order = values.map((_, index) => index).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Float64Array(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && values[order[end + 1]!] === values[order[start]!]) end += 1;
    const rank = (start + end) / 2 + 1;
    for (let position = start; position <= end; position += 1) ranks[order[position]!] = rank;
    start = end + 1;
  }
  return ranks;
}

export function aucWithDeLong(scores: ArrayLike<number>, labels: ArrayLike<number>): AucInterval {
  assertSameLength(scores, labels);
  const positives: number[] = [];
  const negatives: number[] = [];
  for (let index = 0; index < labels.length; index += 1) (labels[index] === 1 ? positives : negatives).push(scores[index]!);
  const m = positives.length;
  const n = negatives.length;
  if (m === 0 || n === 0) throw new RangeError('AUC needs at least one positive and one negative label');
  const all = midranks([...positives, ...negatives]);
  const withinPositives = midranks(positives);
  const withinNegatives = midranks(negatives);
  // Structural components: V10 per positive, V01 per negative.
  const v10 = new Float64Array(m);
  const v01 = new Float64Array(n);
  let rankSum = 0;
  for (let i = 0; i < m; i += 1) {
    rankSum += all[i]!;
    v10[i] = (all[i]! - withinPositives[i]!) / n;
  }
  for (let j = 0; j < n; j += 1) v01[j] = 1 - (all[m + j]! - withinNegatives[j]!) / m;
  const auc = (rankSum - (m * (m + 1)) / 2) / (m * n);
  const variance = (values: Float64Array) => {
    if (values.length < 2) return 0;
    let mean = 0;
    for (const value of values) mean += value;
    mean /= values.length;
    let total = 0;
    for (const value of values) total += (value - mean) ** 2;
    return total / (values.length - 1);
  };
  const standardError = Math.sqrt(variance(v10) / m + variance(v01) / n);
  return {
    auc,
    low: Math.max(0, auc - 1.959963984540054 * standardError),
    high: Math.min(1, auc + 1.959963984540054 * standardError),
    standardError,
  };
}

/** Mean squared difference between predicted probability and outcome. */
export function brierScore(probabilities: ArrayLike<number>, labels: ArrayLike<number>): number {
  assertSameLength(probabilities, labels);
  if (labels.length === 0) throw new RangeError('Brier score needs at least one row');
  let total = 0;
  for (let index = 0; index < labels.length; index += 1) total += (probabilities[index]! - labels[index]!) ** 2;
  return total / labels.length;
}

/** The ROC curve from (0,0) to (1,1), one point per distinct score, thinned to at most `maximumPoints`. */
export function rocCurve(scores: ArrayLike<number>, labels: ArrayLike<number>, maximumPoints = 101): RocPoint[] {
  assertSameLength(scores, labels);
  const order = Array.from({ length: labels.length }, (_, index) => index).sort((a, b) => scores[b]! - scores[a]!);
  let positives = 0;
  for (let index = 0; index < labels.length; index += 1) positives += labels[index] === 1 ? 1 : 0;
  const negatives = labels.length - positives;
  const points: RocPoint[] = [{ falsePositiveRate: 0, truePositiveRate: 0 }];
  let truePositives = 0;
  let falsePositives = 0;
  for (let position = 0; position < order.length; position += 1) {
    if (labels[order[position]!] === 1) truePositives += 1;
    else falsePositives += 1;
    const next = order[position + 1];
    if (next === undefined || scores[next] !== scores[order[position]!]) {
      points.push({
        falsePositiveRate: negatives === 0 ? 0 : falsePositives / negatives,
        truePositiveRate: positives === 0 ? 0 : truePositives / positives,
      });
    }
  }
  if (points.length <= maximumPoints) return points;
  const thinned: RocPoint[] = [];
  for (let step = 0; step < maximumPoints; step += 1) thinned.push(points[Math.round((step * (points.length - 1)) / (maximumPoints - 1))]!);
  return thinned;
}

/** Equal-width bins of predicted probability; empty bins are left out. */
export function calibrationBins(probabilities: ArrayLike<number>, labels: ArrayLike<number>, binCount = 10): CalibrationBin[] {
  assertSameLength(probabilities, labels);
  const sums = new Float64Array(binCount);
  const positives = new Float64Array(binCount);
  const counts = new Float64Array(binCount);
  for (let index = 0; index < labels.length; index += 1) {
    const bin = Math.min(binCount - 1, Math.max(0, Math.floor(probabilities[index]! * binCount)));
    sums[bin]! += probabilities[index]!;
    positives[bin]! += labels[index]!;
    counts[bin]! += 1;
  }
  const bins: CalibrationBin[] = [];
  for (let bin = 0; bin < binCount; bin += 1) {
    if (counts[bin] === 0) continue;
    bins.push({ meanPredicted: sums[bin]! / counts[bin]!, observedRate: positives[bin]! / counts[bin]!, count: counts[bin]! });
  }
  return bins;
}
