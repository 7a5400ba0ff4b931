import { describe, expect, it } from 'vitest';
import {
  directMethodEstimate,
  doublyRobustEstimate,
  inversePropensityEstimate,
  selfNormalisedEstimate,
  type OffPolicySample,
} from './estimators';
import { cellMeanRewardModel, quantileOfSorted } from './evaluate-target-policy';

function sample(action: number, propensity: number, reward: number, targetProbabilities: number[], cluster = 'p1'): OffPolicySample {
  return { cluster, group: 'g', action, propensity, reward, targetProbabilities };
}

// Two decisions, by hand: weights 0.8/0.5 = 1.6 and 0.5/0.5 = 1.
const twoDecisions = [sample(1, 0.5, 1, [0.2, 0.8]), sample(0, 0.5, 0.5, [0.5, 0.5])];
const model = (_: OffPolicySample, action: number) => (action === 0 ? 0.4 : 0.7);

describe('off-policy point estimates, by hand', () => {
  it('IPS averages weighted rewards over all decisions', () => {
    expect(inversePropensityEstimate(twoDecisions)).toBeCloseTo((1.6 * 1 + 1 * 0.5) / 2, 12);
  });

  it('SNIPS divides by the sum of weights instead', () => {
    expect(selfNormalisedEstimate(twoDecisions)).toBeCloseTo((1.6 * 1 + 1 * 0.5) / (1.6 + 1), 12);
    expect(selfNormalisedEstimate([sample(1, 0.5, 1, [1, 0])])).toBeNaN();
  });

  it('the direct method averages the model over the target’s actions; DR adds the weighted residuals', () => {
    const direct = (0.2 * 0.4 + 0.8 * 0.7 + 0.5 * 0.4 + 0.5 * 0.7) / 2;
    expect(directMethodEstimate(twoDecisions, model)).toBeCloseTo(direct, 12);
    expect(doublyRobustEstimate(twoDecisions, model)).toBeCloseTo(direct + (1.6 * (1 - 0.7) + 1 * (0.5 - 0.4)) / 2, 12);
  });

  it('DR equals the direct method when the model is exact, and IPS when the model predicts zero', () => {
    const exact = [sample(1, 0.25, 0.7, [0, 1]), sample(0, 0.75, 0.4, [0, 1])];
    expect(doublyRobustEstimate(exact, model)).toBeCloseTo(directMethodEstimate(exact, model), 12);
    expect(doublyRobustEstimate(twoDecisions, () => 0)).toBeCloseTo(inversePropensityEstimate(twoDecisions), 12);
  });

  it('the reward model shrinks each cell towards its group, and the group towards the overall mean', () => {
    // Group 0: action 0 three decisions summing 3, action 1 one decision of 0; group 1: action 1, two of 0.5.
    const q = cellMeanRewardModel({ count: [3, 1, 0, 2], rewardSum: [3, 0, 0, 1], groupCount: 2, actionCount: 2, pseudoCount: 1 });
    const overall = 4 / 6;
    const group0 = (3 + overall) / (4 + 1);
    const group1 = (1 + overall) / (2 + 1);
    expect([...q]).toEqual([(3 + group0) / 4, (0 + group0) / 2, group1, (1 + group1) / 3].map((value) => expect.closeTo(value, 12)));
  });

  it('quantiles interpolate between order statistics as numpy does', () => {
    expect(quantileOfSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileOfSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
    expect(quantileOfSorted([5], 0.975)).toBe(5);
  });
});
