/**
 * Patient-weeks for training and testing, split by time: every boundary before `testFrom` trains, every
 * boundary from it on tests. A training row's label week ends by `testFrom`, so no training label overlaps a
 * test week either.
 */
import { computeFeatures, computeLabel, featureCount, labelDays, lookBackDays } from './features';
import type { PatientHistory } from './history';

export type RiskRows = {
  /** Row-major, `featureCount` values per row. */
  features: Float64Array;
  labels: Uint8Array;
  /** Index into the histories, per row. */
  patientIndex: Int32Array;
  boundary: Int32Array;
  size: number;
};

export type RiskSplit = {
  train: RiskRows;
  test: RiskRows;
  /** Week boundaries (day indexes) of each part. */
  trainBoundaries: number[];
  testBoundaries: number[];
};

/** Week boundaries with a full look-back and a full label week: 35, 42, … (day indexes). */
export function weekBoundaries(dayCount: number): number[] {
  const boundaries: number[] = [];
  const first = Math.ceil(lookBackDays / 7) * 7;
  for (let boundary = first; boundary + labelDays <= dayCount; boundary += 7) boundaries.push(boundary);
  return boundaries;
}

export function buildRows(histories: readonly PatientHistory[], boundaries: readonly number[]): RiskRows {
  const capacity = histories.length * boundaries.length;
  const features = new Float64Array(capacity * featureCount);
  const labels = new Uint8Array(capacity);
  const patientIndex = new Int32Array(capacity);
  const boundary = new Int32Array(capacity);
  let size = 0;
  histories.forEach((history, index) => {
    for (const at of boundaries) {
      const label = computeLabel(history, at);
      if (label === null) continue;
      features.set(computeFeatures(history, at), size * featureCount);
      labels[size] = label;
      patientIndex[size] = index;
      boundary[size] = at;
      size += 1;
    }
  });
  return {
    features: features.subarray(0, size * featureCount),
    labels: labels.subarray(0, size),
    patientIndex: patientIndex.subarray(0, size),
    boundary: boundary.subarray(0, size),
    size,
  };
}

/** The last `testShare` of the boundaries (at least one) test; the rest train. */
export function splitByTime(histories: readonly PatientHistory[], testShare = 0.25): RiskSplit {
  const dayCount = Math.min(...histories.map((history) => history.dayCount));
  const boundaries = weekBoundaries(dayCount);
  if (boundaries.length < 2)
    throw new RangeError(`at least ${lookBackDays + 2 * labelDays + 6} days of history are needed to split by time`);
  const testCount = Math.min(boundaries.length - 1, Math.max(1, Math.round(boundaries.length * testShare)));
  const trainBoundaries = boundaries.slice(0, boundaries.length - testCount);
  const testBoundaries = boundaries.slice(boundaries.length - testCount);
  return { train: buildRows(histories, trainBoundaries), test: buildRows(histories, testBoundaries), trainBoundaries, testBoundaries };
}
