import { describe, expect, it } from 'vitest';
import { aucWithDeLong, brierScore, calibrationBins, rocCurve } from './metrics';

// Golden values from an independent O(m·n) computation in Python/NumPy: AUC as the mean of ψ(positive,
// negative) with ties ½, DeLong's variance from the structural components with ddof = 1.
const scores = [0.9, 0.8, 0.8, 0.7, 0.6, 0.55, 0.5, 0.4, 0.3, 0.3, 0.2, 0.1];
const labels = [1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0];

describe('risk metrics against golden vectors', () => {
  it('AUC and its DeLong interval (ties included)', () => {
    const result = aucWithDeLong(scores, labels);
    expect(result.auc).toBeCloseTo(0.7714285714285715, 12);
    expect(result.standardError).toBeCloseTo(0.1478876205073289, 12);
    expect(result.low).toBeCloseTo(0.4815741614748797, 12);
    expect(result.high).toBe(1); // 1.0613 clipped to 1
  });

  it('AUC is 1 for a perfect ranking and 0.5 when every score ties', () => {
    expect(aucWithDeLong([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0]).auc).toBe(1);
    expect(aucWithDeLong([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 0]).auc).toBe(0.5);
  });

  it('refuses labels of one class', () => {
    expect(() => aucWithDeLong([0.1, 0.2], [1, 1])).toThrow(/positive and one negative/);
  });

  it('Brier score', () => {
    expect(brierScore([0.1, 0.4, 0.35, 0.8, 0.65, 0.2], [0, 0, 1, 1, 1, 0])).toBeCloseTo(0.1325, 12);
  });

  it('ROC curve runs from (0,0) to (1,1) and its trapezoid area is the AUC', () => {
    const curve = rocCurve(scores, labels);
    expect(curve[0]).toEqual({ falsePositiveRate: 0, truePositiveRate: 0 });
    expect(curve.at(-1)).toEqual({ falsePositiveRate: 1, truePositiveRate: 1 });
    let area = 0;
    for (let index = 1; index < curve.length; index += 1) {
      area +=
        ((curve[index]!.falsePositiveRate - curve[index - 1]!.falsePositiveRate) *
          (curve[index]!.truePositiveRate + curve[index - 1]!.truePositiveRate)) /
        2;
    }
    expect(area).toBeCloseTo(0.7714285714285715, 12);
  });

  it('calibration bins count every row once', () => {
    const bins = calibrationBins([0.05, 0.07, 0.55, 0.95, 1], [0, 1, 1, 1, 1]);
    expect(bins.map((bin) => [Number(bin.meanPredicted.toFixed(12)), bin.observedRate, bin.count])).toEqual([
      [0.06, 0.5, 2],
      [0.55, 1, 1],
      [0.975, 1, 2],
    ]);
  });
});
