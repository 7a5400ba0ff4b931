/**
 * The value of a target policy estimated from a decision log, by IPS, SNIPS, the direct method and doubly
 * robust, each with a cluster-bootstrap percentile interval (decision 022).
 *
 * Reward model (for DM and DR): the mean reward of each stratum × action, shrunk towards the stratum's
 * mean over all actions, which is itself shrunk towards the overall mean. DR stays unbiased whatever the
 * model when the propensities are exact; the model only buys variance, and most of the reward's variance
 * lies between patients' states (persona, how the last week went), not between actions, which is what the
 * strata capture. Being a table of sums, it is refitted inside every bootstrap replicate for the cost of
 * adding those sums, so the interval carries the model's own uncertainty, and it scales to the live log.
 *
 * Bootstrap: patients are resampled, not decisions. A patient's days share the patient (their habits,
 * their persona's response) and carry over (habituation, support), so decisions of one patient are
 * positively correlated; resampling days as if independent would understate the variance.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { checkSample, importanceWeight, unsupportedTargetMass, type OffPolicySample } from './estimators';

export type IntervalEstimate = { value: number; lower: number; upper: number };

export type TargetPolicyEvaluation = {
  decisions: number;
  patients: number;
  replicates: number;
  confidenceLevel: number;
  /** Kish's effective sample size of the importance weights, (Σw)² / Σw²: how many decisions the estimate is worth. */
  effectiveSampleSize: number;
  /**
   * Mean probability the target puts on actions the logging policy could not take (0 = full support);
   * null when some decisions of a randomised logger lack their logged probabilities. Above 0 the estimates
   * leave out what the target does there and are biased.
   */
  unsupportedTargetMass: number | null;
  ips: IntervalEstimate;
  snips: IntervalEstimate;
  directMethod: IntervalEstimate;
  doublyRobust: IntervalEstimate;
};

export const offPolicyDefaults = {
  /** Enough for stable 2.5% and 97.5% percentiles (Efron & Tibshirani 1993 suggest at least 1,000). */
  replicates: 1000,
  confidenceLevel: 0.95,
  /**
   * Prior weight, in decisions, of the stratum mean in a stratum × action cell (and of the overall mean in
   * a stratum): a cell with this many decisions counts its own mean and its stratum's equally.
   */
  pseudoCount: 5,
} as const;

export type EvaluateTargetPolicyOptions = {
  samples: readonly OffPolicySample[];
  /** Seeds the bootstrap: the same samples and seed give the same intervals. */
  seed: number;
  replicates?: number;
  confidenceLevel?: number;
  pseudoCount?: number;
};

/** Sums of one patient's decisions in one stratum × action cell. */
type CellSums = { count: number; rewardSum: number; targetMass: number; weightSum: number };

/** Everything the estimators need, as sums that add across patients. */
type ClusterTables = {
  cellCount: number;
  /** Per cluster: decisions, Σ w·r, Σ w; then its cells as parallel arrays from cellStart[c] to cellStart[c + 1]. */
  decisions: Float64Array;
  weightedReward: Float64Array;
  weight: Float64Array;
  cellStart: Int32Array;
  cell: Int32Array;
  count: Float64Array;
  rewardSum: Float64Array;
  /** Σ over the cell's group's decisions of π_target(action | x): how often the target plays this cell. */
  targetMass: Float64Array;
  /** Σ of w over decisions that took this action. */
  weightSum: Float64Array;
};

function buildTables(samples: readonly OffPolicySample[], actionCount: number): { tables: ClusterTables; groupCount: number } {
  const groups = new Map<string, number>();
  const clusters = new Map<string, { decisions: number; weightedReward: number; weight: number; cells: Map<number, CellSums> }>();
  const cellOf = (cells: Map<number, CellSums>, index: number): CellSums => {
    let sums = cells.get(index);
    if (sums === undefined) {
      sums = { count: 0, rewardSum: 0, targetMass: 0, weightSum: 0 };
      cells.set(index, sums);
    }
    return sums;
  };
  for (const sample of samples) {
    checkSample(sample, actionCount);
    let group = groups.get(sample.group);
    if (group === undefined) {
      group = groups.size;
      groups.set(sample.group, group);
    }
    let cluster = clusters.get(sample.cluster);
    if (cluster === undefined) {
      cluster = { decisions: 0, weightedReward: 0, weight: 0, cells: new Map() };
      clusters.set(sample.cluster, cluster);
    }
    const weight = importanceWeight(sample);
    cluster.decisions += 1;
    cluster.weightedReward += weight * sample.reward;
    cluster.weight += weight;
    const taken = cellOf(cluster.cells, group * actionCount + sample.action);
    taken.count += 1;
    taken.rewardSum += sample.reward;
    taken.weightSum += weight;
    sample.targetProbabilities.forEach((probability, action) => {
      if (probability > 0) cellOf(cluster.cells, group * actionCount + action).targetMass += probability;
    });
  }
  const clusterList = [...clusters.values()];
  const entries = clusterList.reduce((total, cluster) => total + cluster.cells.size, 0);
  const tables: ClusterTables = {
    cellCount: groups.size * actionCount,
    decisions: new Float64Array(clusterList.length),
    weightedReward: new Float64Array(clusterList.length),
    weight: new Float64Array(clusterList.length),
    cellStart: new Int32Array(clusterList.length + 1),
    cell: new Int32Array(entries),
    count: new Float64Array(entries),
    rewardSum: new Float64Array(entries),
    targetMass: new Float64Array(entries),
    weightSum: new Float64Array(entries),
  };
  let entry = 0;
  clusterList.forEach((cluster, index) => {
    tables.decisions[index] = cluster.decisions;
    tables.weightedReward[index] = cluster.weightedReward;
    tables.weight[index] = cluster.weight;
    tables.cellStart[index] = entry;
    for (const [cell, sums] of cluster.cells) {
      tables.cell[entry] = cell;
      tables.count[entry] = sums.count;
      tables.rewardSum[entry] = sums.rewardSum;
      tables.targetMass[entry] = sums.targetMass;
      tables.weightSum[entry] = sums.weightSum;
      entry += 1;
    }
  });
  tables.cellStart[clusterList.length] = entry;
  return { tables, groupCount: groups.size };
}

/**
 * The shrunk cell means q[group · actionCount + action] from per-cell counts and reward sums. Exported for
 * tests and for callers that want the fitted model itself.
 */
export function cellMeanRewardModel(options: {
  count: ArrayLike<number>;
  rewardSum: ArrayLike<number>;
  groupCount: number;
  actionCount: number;
  pseudoCount: number;
}): Float64Array {
  const { count, rewardSum, groupCount, actionCount, pseudoCount } = options;
  let totalCount = 0;
  let totalReward = 0;
  for (let cell = 0; cell < groupCount * actionCount; cell += 1) {
    totalCount += count[cell] ?? 0;
    totalReward += rewardSum[cell] ?? 0;
  }
  const overall = totalCount === 0 ? 0 : totalReward / totalCount;
  const model = new Float64Array(groupCount * actionCount);
  for (let group = 0; group < groupCount; group += 1) {
    let groupCountSum = 0;
    let groupRewardSum = 0;
    for (let action = 0; action < actionCount; action += 1) {
      groupCountSum += count[group * actionCount + action] ?? 0;
      groupRewardSum += rewardSum[group * actionCount + action] ?? 0;
    }
    const groupMean = (groupRewardSum + pseudoCount * overall) / (groupCountSum + pseudoCount);
    for (let action = 0; action < actionCount; action += 1) {
      const cell = group * actionCount + action;
      model[cell] = ((rewardSum[cell] ?? 0) + pseudoCount * groupMean) / ((count[cell] ?? 0) + pseudoCount);
    }
  }
  return model;
}

type Estimates = { ips: number; snips: number; directMethod: number; doublyRobust: number };

/** Scratch arrays for one pass over the tables with a multiplicity per cluster. */
type Totals = { count: Float64Array; rewardSum: Float64Array; targetMass: Float64Array; weightSum: Float64Array };

function estimatesFor(
  tables: ClusterTables,
  multiplicity: ArrayLike<number>,
  totals: Totals,
  model: { groupCount: number; actionCount: number; pseudoCount: number },
): Estimates {
  totals.count.fill(0);
  totals.rewardSum.fill(0);
  totals.targetMass.fill(0);
  totals.weightSum.fill(0);
  let decisions = 0;
  let weightedReward = 0;
  let weight = 0;
  for (let cluster = 0; cluster < tables.decisions.length; cluster += 1) {
    const times = multiplicity[cluster] ?? 0;
    if (times === 0) continue;
    decisions += times * tables.decisions[cluster]!;
    weightedReward += times * tables.weightedReward[cluster]!;
    weight += times * tables.weight[cluster]!;
    for (let entry = tables.cellStart[cluster]!; entry < tables.cellStart[cluster + 1]!; entry += 1) {
      const cell = tables.cell[entry]!;
      totals.count[cell]! += times * tables.count[entry]!;
      totals.rewardSum[cell]! += times * tables.rewardSum[entry]!;
      totals.targetMass[cell]! += times * tables.targetMass[entry]!;
      totals.weightSum[cell]! += times * tables.weightSum[entry]!;
    }
  }
  const q = cellMeanRewardModel({ count: totals.count, rewardSum: totals.rewardSum, ...model });
  let direct = 0;
  let predictedWeighted = 0;
  for (let cell = 0; cell < q.length; cell += 1) {
    direct += q[cell]! * totals.targetMass[cell]!;
    predictedWeighted += q[cell]! * totals.weightSum[cell]!;
  }
  return {
    ips: weightedReward / decisions,
    snips: weight === 0 ? NaN : weightedReward / weight,
    directMethod: direct / decisions,
    doublyRobust: (direct + weightedReward - predictedWeighted) / decisions,
  };
}

/** The p-quantile of sorted values, interpolating linearly between order statistics (numpy's default). */
export function quantileOfSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const position = (sorted.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}

function interval(value: number, replicates: number[], confidenceLevel: number): IntervalEstimate {
  const finite = Float64Array.from(replicates.filter(Number.isFinite)).sort();
  const tail = (1 - confidenceLevel) / 2;
  return { value, lower: quantileOfSorted(finite, tail), upper: quantileOfSorted(finite, 1 - tail) };
}

export function evaluateTargetPolicy(options: EvaluateTargetPolicyOptions): TargetPolicyEvaluation {
  const { samples, seed } = options;
  const replicates = options.replicates ?? offPolicyDefaults.replicates;
  const confidenceLevel = options.confidenceLevel ?? offPolicyDefaults.confidenceLevel;
  const pseudoCount = options.pseudoCount ?? offPolicyDefaults.pseudoCount;
  if (samples.length === 0) throw new RangeError('samples must hold at least one logged decision');
  if (!Number.isInteger(replicates) || replicates < 1) throw new RangeError(`replicates must be a positive integer, got ${replicates}`);
  if (!(confidenceLevel > 0 && confidenceLevel < 1)) throw new RangeError(`confidenceLevel must be in (0, 1), got ${confidenceLevel}`);
  if (!(pseudoCount > 0)) throw new RangeError(`pseudoCount must be positive, got ${pseudoCount}`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);

  const actionCount = samples[0]!.targetProbabilities.length;
  const { tables, groupCount } = buildTables(samples, actionCount);
  const clusterCount = tables.decisions.length;
  const totals: Totals = {
    count: new Float64Array(tables.cellCount),
    rewardSum: new Float64Array(tables.cellCount),
    targetMass: new Float64Array(tables.cellCount),
    weightSum: new Float64Array(tables.cellCount),
  };
  const model = { groupCount, actionCount, pseudoCount };
  const point = estimatesFor(tables, new Float64Array(clusterCount).fill(1), totals, model);

  const random = xoroshiro128plus(seed);
  const multiplicity = new Float64Array(clusterCount);
  const draws: Record<keyof Estimates, number[]> = { ips: [], snips: [], directMethod: [], doublyRobust: [] };
  for (let replicate = 0; replicate < replicates; replicate += 1) {
    multiplicity.fill(0);
    for (let draw = 0; draw < clusterCount; draw += 1) multiplicity[uniformInt(random, 0, clusterCount - 1)]! += 1;
    const estimates = estimatesFor(tables, multiplicity, totals, model);
    draws.ips.push(estimates.ips);
    draws.snips.push(estimates.snips);
    draws.directMethod.push(estimates.directMethod);
    draws.doublyRobust.push(estimates.doublyRobust);
  }

  let weightSum = 0;
  let squaredWeightSum = 0;
  let unsupported: number | null = 0;
  for (const sample of samples) {
    const weight = importanceWeight(sample);
    weightSum += weight;
    squaredWeightSum += weight * weight;
    const mass = unsupportedTargetMass(sample);
    unsupported = unsupported === null || mass === null ? null : unsupported + mass;
  }
  return {
    decisions: samples.length,
    patients: clusterCount,
    replicates,
    confidenceLevel,
    effectiveSampleSize: squaredWeightSum === 0 ? 0 : (weightSum * weightSum) / squaredWeightSum,
    unsupportedTargetMass: unsupported === null ? null : unsupported / samples.length,
    ips: interval(point.ips, draws.ips, confidenceLevel),
    snips: interval(point.snips, draws.snips, confidenceLevel),
    directMethod: interval(point.directMethod, draws.directMethod, confidenceLevel),
    doublyRobust: interval(point.doublyRobust, draws.doublyRobust, confidenceLevel),
  };
}
