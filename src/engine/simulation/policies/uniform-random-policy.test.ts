import { describe, expect, it } from 'vitest';
import type { DecisionContext } from '@/engine/policy/contract';
import { armCount, armIndex } from '@/engine/policy/message-arms';
import { createRandomStream, nextUniform } from '../random';
import { createUniformRandomPolicy, uniformRandomArmProbabilities } from './uniform-random-policy';

const context = { patientId: 'sim-1-000001', weekday: 2 } as DecisionContext;

describe('uniform-random policy', () => {
  it('reports probabilities that sum to one: half no message, the rest even over the arms', () => {
    expect(uniformRandomArmProbabilities).toHaveLength(armCount + 1);
    expect(uniformRandomArmProbabilities.reduce((total, probability) => total + probability, 0)).toBeCloseTo(1, 12);
    expect(uniformRandomArmProbabilities[0]).toBe(0.5);
    expect(new Set(uniformRandomArmProbabilities.slice(1))).toEqual(new Set([0.5 / armCount]));
  });

  it('chooses every action about as often as its propensity says, and logs that propensity', () => {
    const policy = createUniformRandomPolicy();
    const stream = createRandomStream(1, 0, 'policy');
    const random = () => nextUniform(stream);
    const draws = 40_000;
    const counts = new Array<number>(armCount + 1).fill(0);
    for (let draw = 0; draw < draws; draw += 1) {
      const choice = policy.decide(context, random);
      const action = choice.kind === 'no-message' ? 0 : 1 + armIndex(choice.arm.category, choice.arm.framing);
      expect(choice.propensity).toBe(uniformRandomArmProbabilities[action]);
      counts[action]! += 1;
    }
    counts.forEach((count, action) => {
      const expected = draws * uniformRandomArmProbabilities[action]!;
      // Four binomial standard deviations.
      expect(Math.abs(count - expected)).toBeLessThan(4 * Math.sqrt(expected));
    });
  });

  it('sends at the fixed-daily reminder time unless told otherwise', () => {
    const always = () => 0;
    expect(createUniformRandomPolicy().decide(context, always)).toMatchObject({ kind: 'message', minuteOfDay: 480 });
    expect(createUniformRandomPolicy({ minuteOfDay: 600 }).decide(context, always)).toMatchObject({ minuteOfDay: 600 });
  });
});
