import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import {
  doublyRobustEstimate,
  directMethodEstimate,
  inversePropensityEstimate,
  selfNormalisedEstimate,
  type OffPolicySample,
} from './estimators';
import { cellMeanRewardModel, evaluateTargetPolicy, offPolicyDefaults } from './evaluate-target-policy';

/**
 * A synthetic three-action bandit with a known answer: patients have their own baseline (so their
 * decisions are correlated), action a adds effects[a], the logging policy is uniform, and the target
 * plays action 2 with probability 0.7 and action 0 otherwise.
 */
const effects = [0, 0.05, 0.15];
const target = [0.3, 0, 0.7];
const trueValue = 0.5 + target.reduce((total, probability, action) => total + probability * effects[action]!, 0);

function syntheticLog(options: { patients: number; days: number; seed: number }): OffPolicySample[] {
  const generator = xoroshiro128plus(options.seed);
  const uniform = () => (generator.next() >>> 0) / 2 ** 32;
  const samples: OffPolicySample[] = [];
  for (let patient = 0; patient < options.patients; patient += 1) {
    const baseline = 0.5 + (uniform() - 0.5) * 0.6;
    const group = baseline < 0.5 ? 'low' : 'high';
    for (let day = 0; day < options.days; day += 1) {
      const action = Math.floor(uniform() * 3);
      const reward = Math.min(1, Math.max(0, baseline + effects[action]! + (uniform() - 0.5) * 0.2));
      samples.push({ cluster: `p${patient}`, group, action, propensity: 1 / 3, reward, targetProbabilities: target });
    }
  }
  return samples;
}

describe('evaluateTargetPolicy', () => {
  const samples = syntheticLog({ patients: 200, days: 30, seed: 11 });
  const evaluation = evaluateTargetPolicy({ samples, seed: 5, replicates: 400 });

  it('gives the point estimates of the plain estimators, DR and DM with the fitted cell-mean model', () => {
    expect(evaluation.decisions).toBe(6000);
    expect(evaluation.patients).toBe(200);
    expect(evaluation.ips.value).toBeCloseTo(inversePropensityEstimate(samples), 10);
    expect(evaluation.snips.value).toBeCloseTo(selfNormalisedEstimate(samples), 10);
    const groups = ['low', 'high'];
    const count = new Float64Array(6);
    const rewardSum = new Float64Array(6);
    for (const sample of samples) {
      const cell = groups.indexOf(sample.group) * 3 + sample.action;
      count[cell]! += 1;
      rewardSum[cell]! += sample.reward;
    }
    // The table's groups are numbered in order of first appearance.
    const firstGroup = samples[0]!.group;
    const order = firstGroup === 'low' ? groups : [...groups].reverse();
    const q = cellMeanRewardModel({
      count: order.flatMap((group) => [...count.slice(groups.indexOf(group) * 3, groups.indexOf(group) * 3 + 3)]),
      rewardSum: order.flatMap((group) => [...rewardSum.slice(groups.indexOf(group) * 3, groups.indexOf(group) * 3 + 3)]),
      groupCount: 2,
      actionCount: 3,
      pseudoCount: offPolicyDefaults.pseudoCount,
    });
    const predict = (sample: OffPolicySample, action: number) => q[order.indexOf(sample.group) * 3 + action]!;
    expect(evaluation.directMethod.value).toBeCloseTo(directMethodEstimate(samples, predict), 10);
    expect(evaluation.doublyRobust.value).toBeCloseTo(doublyRobustEstimate(samples, predict), 10);
  });

  it('covers the true value with every estimator, and DR’s interval is narrower than IPS’s', () => {
    for (const estimate of [evaluation.ips, evaluation.snips, evaluation.directMethod, evaluation.doublyRobust]) {
      expect(estimate.lower).toBeLessThanOrEqual(estimate.value);
      expect(estimate.upper).toBeGreaterThanOrEqual(estimate.value);
      expect(estimate.lower).toBeLessThan(trueValue);
      expect(estimate.upper).toBeGreaterThan(trueValue);
    }
    expect(evaluation.doublyRobust.upper - evaluation.doublyRobust.lower).toBeLessThan(evaluation.ips.upper - evaluation.ips.lower);
    // Weights 0.9, 0 and 2.1 on a third of the decisions each: (Σw)² / Σw² ≈ n / ((0.81 + 4.41) / 3) = n / 1.74.
    expect(evaluation.effectiveSampleSize).toBeGreaterThan(6000 / 2);
    expect(evaluation.effectiveSampleSize).toBeLessThan(6000);
  });

  it('is deterministic for a seed', () => {
    expect(evaluateTargetPolicy({ samples, seed: 5, replicates: 400 })).toEqual(evaluation);
    expect(evaluateTargetPolicy({ samples, seed: 6, replicates: 400 }).ips.lower).not.toBe(evaluation.ips.lower);
  });

  it('resamples patients: correlated days widen the interval compared with treating each day as its own patient', () => {
    const asDays = samples.map((sample, index) => ({ ...sample, cluster: `d${index}` }));
    const byDay = evaluateTargetPolicy({ samples: asDays, seed: 5, replicates: 400 });
    expect(byDay.ips.value).toBeCloseTo(evaluation.ips.value, 12);
    // Patients' baselines spread ±0.3, noise only ±0.1: most of the variance lies between patients.
    expect(evaluation.snips.upper - evaluation.snips.lower).toBeGreaterThan(1.5 * (byDay.snips.upper - byDay.snips.lower));
  });

  it('reports how much of the target lies where the logging policy could not act', () => {
    // Propensities 1/3 without the logged distribution: unknown.
    expect(evaluation.unsupportedTargetMass).toBeNull();
    const uniform = [1 / 3, 1 / 3, 1 / 3];
    const logged = samples.map((sample) => ({ ...sample, loggingProbabilities: uniform }));
    expect(evaluateTargetPolicy({ samples: logged, seed: 5, replicates: 10 }).unsupportedTargetMass).toBe(0);
    // A logger that never plays action 2 cannot see the 0.7 the target puts there.
    const withoutTwo = samples
      .filter((sample) => sample.action !== 2)
      .map((sample) => ({ ...sample, propensity: 0.5, loggingProbabilities: [0.5, 0.5, 0] }));
    expect(evaluateTargetPolicy({ samples: withoutTwo, seed: 5, replicates: 10 }).unsupportedTargetMass).toBeCloseTo(0.7, 12);
    // A deterministic logger (propensity 1) could take only its own action.
    const fixed = samples.filter((sample) => sample.action === 0).map((sample) => ({ ...sample, propensity: 1 }));
    expect(evaluateTargetPolicy({ samples: fixed, seed: 5, replicates: 10 }).unsupportedTargetMass).toBeCloseTo(0.7, 12);
  });

  it('refuses samples no estimator can use', () => {
    const base = samples[0]!;
    expect(() => evaluateTargetPolicy({ samples: [{ ...base, propensity: 0 }], seed: 1 })).toThrow(/propensity/);
    expect(() => evaluateTargetPolicy({ samples: [{ ...base, action: 3 }], seed: 1 })).toThrow(/action/);
    expect(() => evaluateTargetPolicy({ samples: [base, { ...base, targetProbabilities: [1, 0] }], seed: 1 })).toThrow(
      /targetProbabilities/,
    );
    expect(() => evaluateTargetPolicy({ samples: [], seed: 1 })).toThrow(/samples/);
  });
});
