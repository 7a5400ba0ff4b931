import { describe, expect, it } from 'vitest';
import { computeKaplanMeier, computeKaplanMeierWithIntervals } from './kaplan-meier';

describe('Kaplan–Meier', () => {
  it('matches the textbook example (events at 6, 6, 7, censored at 6 and 9 of 6 subjects)', () => {
    const subjects = [
      { time: 6, event: true },
      { time: 6, event: true },
      { time: 6, event: false },
      { time: 7, event: true },
      { time: 9, event: false },
      { time: 10, event: true },
    ];
    const points = computeKaplanMeier(subjects, [0, 6, 7, 9, 10]);
    // At 6: 6 at risk, 2 events → 4/6. At 7: 3 at risk, 1 event → 4/6 × 2/3. At 10: 1 at risk, 1 event → 0.
    [1, 4 / 6, (4 / 6) * (2 / 3), (4 / 6) * (2 / 3), 0].forEach((expected, index) =>
      expect(points[index]?.survival).toBeCloseTo(expected, 12),
    );
    expect(points.map((point) => point.atRisk)).toEqual([6, 6, 3, 2, 1]);
  });

  it('stays at 1 with no events and handles no subjects', () => {
    expect(computeKaplanMeier([{ time: 30, event: false }], [0, 60])).toEqual([
      { time: 0, survival: 1, atRisk: 1 },
      { time: 60, survival: 1, atRisk: 0 },
    ]);
    expect(computeKaplanMeier([], [0])).toEqual([{ time: 0, survival: 1, atRisk: 0 }]);
  });

  it('gives log(−log) Greenwood limits (hand-computed: at 6, S = 4/6, Σ = 2/(6·4); at 7, Σ += 1/(3·2))', () => {
    const subjects = [6, 6, 7, 10].map((time) => ({ time, event: true })).concat([6, 9].map((time) => ({ time, event: false })));
    const points = computeKaplanMeierWithIntervals(subjects, [0, 6, 7, 10]);
    expect(points[0]).toEqual({ time: 0, survival: 1, atRisk: 6, lower: null, upper: 1 });
    expect(points[1]?.lower).toBeCloseTo(0.194617, 5);
    expect(points[1]?.upper).toBeCloseTo(0.904434, 5);
    expect(points[2]?.lower).toBeCloseTo(0.066187, 5);
    expect(points[2]?.upper).toBeCloseTo(0.784908, 5);
    expect(points.map((point) => point.atRisk)).toEqual([6, 6, 3, 1]);
    expect(points[3]?.survival).toBe(0);
    // The same step function as computeKaplanMeier.
    const plain = computeKaplanMeier(subjects, [0, 6, 7, 10]);
    points.forEach((point, index) => expect(point.survival).toBeCloseTo(plain[index]!.survival, 12));
  });
});
