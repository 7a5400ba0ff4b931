import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inversePropensityEstimate, selfNormalisedEstimate, type OffPolicySample } from './estimators';

/** Three actions; a logging distribution and a target distribution per decision, both with full support. */
const distribution = fc
  .tuple(
    fc.double({ min: 0.05, max: 1, noNaN: true }),
    fc.double({ min: 0.05, max: 1, noNaN: true }),
    fc.double({ min: 0.05, max: 1, noNaN: true }),
  )
  .map((weights) => {
    const total = weights[0] + weights[1] + weights[2];
    return weights.map((weight) => weight / total);
  });
const decision = fc.record({
  logging: distribution,
  target: distribution,
  action: fc.integer({ min: 0, max: 2 }),
  reward: fc.double({ min: -1, max: 1, noNaN: true }),
});

describe('off-policy estimators, for any log', () => {
  it('IPS and SNIPS give the mean reward when the target is the logging policy', () => {
    fc.assert(
      fc.property(fc.array(decision, { minLength: 1, maxLength: 30 }), (decisions) => {
        const samples: OffPolicySample[] = decisions.map(({ logging, action, reward }) => ({
          cluster: 'p',
          group: 'g',
          action,
          propensity: logging[action]!,
          reward,
          targetProbabilities: logging,
        }));
        const mean = decisions.reduce((total, { reward }) => total + reward, 0) / decisions.length;
        expect(inversePropensityEstimate(samples)).toBeCloseTo(mean, 9);
        expect(selfNormalisedEstimate(samples)).toBeCloseTo(mean, 9);
      }),
    );
  });

  it('SNIPS stays within the logged rewards: a weighted mean of them', () => {
    fc.assert(
      fc.property(fc.array(decision, { minLength: 1, maxLength: 30 }), (decisions) => {
        const samples: OffPolicySample[] = decisions.map(({ logging, target, action, reward }) => ({
          cluster: 'p',
          group: 'g',
          action,
          propensity: logging[action]!,
          reward,
          targetProbabilities: target,
        }));
        const rewards = decisions.map(({ reward }) => reward);
        const estimate = selfNormalisedEstimate(samples);
        expect(estimate).toBeGreaterThanOrEqual(Math.min(...rewards) - 1e-12);
        expect(estimate).toBeLessThanOrEqual(Math.max(...rewards) + 1e-12);
      }),
    );
  });
});
