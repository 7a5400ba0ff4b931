import { describe, expect, it } from 'vitest';
import { featureCount } from './features';
import { splitByTime } from './dataset';
import { predictLogistic, trainLogistic } from './logistic';
import { predictNetwork, trainNetwork } from './network';
import { simulateHistories } from './simulate-histories';
import { aucWithDeLong } from './metrics';

describe('risk models', () => {
  it('logistic regression recovers known coefficients', () => {
    // y ~ Bernoulli(sigmoid(-0.5 + 2·x0 − 1·x1)) with x uniform in [-1, 1], from a fixed generator.
    let state = 1;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296;
    const rows = 20_000;
    const features = new Float64Array(rows * 2);
    const labels = new Uint8Array(rows);
    for (let r = 0; r < rows; r += 1) {
      const x0 = random() * 2 - 1;
      const x1 = random() * 2 - 1;
      features[r * 2] = x0;
      features[r * 2 + 1] = x1;
      labels[r] = random() < 1 / (1 + Math.exp(-(-0.5 + 2 * x0 - x1))) ? 1 : 0;
    }
    const model = trainLogistic({ features, labels, width: 2, ridge: 0 });
    const [scale0, scale1] = model.standardiser.scales;
    expect(model.coefficients[0]! / scale0!).toBeCloseTo(2, 0);
    expect(model.coefficients[1]! / scale1!).toBeCloseTo(-1, 0);
    expect(predictLogistic(model, new Float64Array([0, 0]))[0]).toBeCloseTo(1 / (1 + Math.exp(0.5)), 1);
  });

  it('the network trains to the same weights with the same seed and beats chance on simulated weeks', async () => {
    const split = splitByTime(simulateHistories({ patients: 300, weeks: 12, seed: 3 }));
    const options = { features: split.train.features, labels: split.train.labels, width: featureCount, seed: 5 };
    const first = await trainNetwork(options);
    const second = await trainNetwork(options);
    expect(second.model).toEqual(first.model);
    expect(second.curve).toEqual(first.curve);
    const other = await trainNetwork({ ...options, seed: 6 });
    expect(other.model).not.toEqual(first.model);
    expect(aucWithDeLong(predictNetwork(first.model, split.test.features), split.test.labels).auc).toBeGreaterThan(0.6);
  }, 60_000);
});
