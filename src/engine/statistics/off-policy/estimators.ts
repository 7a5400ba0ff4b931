/**
 * Off-policy point estimates of a target policy's value (mean reward per decision) from a log of another
 * policy's decisions: inverse propensity scoring (IPS), self-normalised IPS (SNIPS), the direct method
 * (a reward model alone) and doubly robust (DR: the direct method corrected by IPS on its residuals).
 * Dudík, Langford & Li 2011; Swaminathan & Joachims 2015.
 *
 * Actions are numbered as in the decision log: 0 = no message, 1 + armIndex(category, framing).
 */

/** One logged decision, with what the target policy would have done in the same context. */
export type OffPolicySample = {
  /** The unit the bootstrap resamples (the patient): decisions of one patient are not independent. */
  cluster: string;
  /** The reward model's stratum for this context (see rewardModelGroup). */
  group: string;
  /** The action the logging policy took. */
  action: number;
  /** The logging policy's probability of that action, in (0, 1]. */
  propensity: number;
  reward: number;
  /** The target policy's probability of every action in this context (sums to 1). */
  targetProbabilities: readonly number[];
  /** The logging policy's probability of every action, when logged (policy_decisions.arm_probabilities). */
  loggingProbabilities?: readonly number[] | null;
};

/** q(sample, action): a reward model's prediction of the reward of `action` in the sample's context. */
export type RewardPrediction = (sample: OffPolicySample, action: number) => number;

/** The importance weight π_target(a | x) / π_logging(a | x) of the logged action. */
export function importanceWeight(sample: OffPolicySample): number {
  return (sample.targetProbabilities[sample.action] ?? 0) / sample.propensity;
}

/** Throws on a sample no estimator can use: a propensity that is not a probability, an action out of range. */
export function checkSample(sample: OffPolicySample, actionCount: number): void {
  if (!(sample.propensity > 0 && sample.propensity <= 1))
    throw new RangeError(`propensity must be in (0, 1], got ${sample.propensity} (patient ${sample.cluster})`);
  if (!Number.isInteger(sample.action) || sample.action < 0 || sample.action >= actionCount)
    throw new RangeError(`action must be an integer from 0 to ${actionCount - 1}, got ${sample.action}`);
  if (sample.targetProbabilities.length !== actionCount)
    throw new RangeError(`targetProbabilities must have ${actionCount} entries, got ${sample.targetProbabilities.length}`);
  if (!Number.isFinite(sample.reward)) throw new RangeError(`reward must be a finite number, got ${sample.reward}`);
}

/** IPS: unbiased when the propensities are the logging policy's true probabilities; high variance. */
export function inversePropensityEstimate(samples: readonly OffPolicySample[]): number {
  if (samples.length === 0) return NaN;
  let total = 0;
  for (const sample of samples) total += importanceWeight(sample) * sample.reward;
  return total / samples.length;
}

/** SNIPS: IPS divided by the mean weight instead of 1; slightly biased, far less variable. NaN if no weight. */
export function selfNormalisedEstimate(samples: readonly OffPolicySample[]): number {
  let weighted = 0;
  let weights = 0;
  for (const sample of samples) {
    const weight = importanceWeight(sample);
    weighted += weight * sample.reward;
    weights += weight;
  }
  return weights === 0 ? NaN : weighted / weights;
}

/** The direct method: the reward model's value of the target policy, Σ_a π(a | x) q(x, a), averaged. */
export function directMethodEstimate(samples: readonly OffPolicySample[], predict: RewardPrediction): number {
  if (samples.length === 0) return NaN;
  let total = 0;
  for (const sample of samples) {
    sample.targetProbabilities.forEach((probability, action) => {
      if (probability > 0) total += probability * predict(sample, action);
    });
  }
  return total / samples.length;
}

/** DR: unbiased if either the propensities or the reward model are right; its variance shrinks as q improves. */
export function doublyRobustEstimate(samples: readonly OffPolicySample[], predict: RewardPrediction): number {
  if (samples.length === 0) return NaN;
  let correction = 0;
  for (const sample of samples) {
    const weight = importanceWeight(sample);
    if (weight !== 0) correction += weight * (sample.reward - predict(sample, sample.action));
  }
  return directMethodEstimate(samples, predict) + correction / samples.length;
}

/**
 * The target's probability on actions the logging policy could not take in this context, or null when
 * unknown (a randomised logging policy that did not log its probabilities). A deterministic logger
 * (propensity 1) could take only its action. IPS and DR are blind to these actions: with any such mass the
 * estimates are biased, whatever their intervals say.
 */
export function unsupportedTargetMass(sample: OffPolicySample): number | null {
  const logging = sample.loggingProbabilities;
  if (logging === undefined || logging === null) {
    if (sample.propensity !== 1) return null;
    return 1 - (sample.targetProbabilities[sample.action] ?? 0);
  }
  let mass = 0;
  sample.targetProbabilities.forEach((probability, action) => {
    if (probability > 0 && !((logging[action] ?? 0) > 0)) mass += probability;
  });
  return mass;
}
