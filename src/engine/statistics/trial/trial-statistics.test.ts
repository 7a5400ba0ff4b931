/**
 * Edge cases and invariants of the trial statistics beyond the golden vectors: zero cells, ties in Fisher's
 * test, refused input, and properties that hold for any table or sample (fast-check).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ancova,
  analyseTrialOutcomes,
  chiSquareTest,
  fisherExactP,
  meanInterval,
  newcombeDifference,
  oddsRatio,
  riskRatio,
  sampleSizeTwoMeans,
  sampleSizeTwoProportions,
  welchTest,
  wilsonInterval,
  type TrialOutcomeRow,
} from './index';

/**
 * Fisher's two-sided p from scipy 1.17, printed by:
 *   from scipy import stats
 *   for x1, n1, x2, n2 in [(100,200,90,200), (3,10,7,10), (0,5,5,5), (0,20,0,20), (150,200,151,200), (1,1,0,1), (200,400,230,400)]:
 *       print((x1, n1, x2, n2), repr(stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]])[1]))
 * (150/200 vs 151/200 is a tie between the two modal tables; 0 of 20 vs 0 of 20 a zero margin.)
 */
const scipyFisher: [number, number, number, number, number][] = [
  [100, 200, 90, 200, 0.3675415475138899],
  [3, 10, 7, 10, 0.1788954079975752],
  [0, 5, 5, 5, 0.007936507936507938],
  [0, 20, 0, 20, 1.0],
  [150, 200, 151, 200, 1.0],
  [1, 1, 0, 1, 1.0],
  [200, 400, 230, 400, 0.03967581468991598],
];

const group = fc.integer({ min: 1, max: 120 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));
const table = fc.tuple(group, group).map(([[x1, n1], [x2, n2]]) => ({ x1, n1, x2, n2 }));

const sample = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 });

describe("Fisher's exact test", () => {
  it.each(scipyFisher)('%i/%i vs %i/%i equals scipy', (x1, n1, x2, n2, expected) => {
    expect(Math.abs(fisherExactP({ x1, n1, x2, n2 }) - expected)).toBeLessThanOrEqual(1e-9);
  });

  it('is a probability, symmetric in the groups and in events/non-events', () => {
    fc.assert(
      fc.property(table, ({ x1, n1, x2, n2 }) => {
        const p = fisherExactP({ x1, n1, x2, n2 });
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(fisherExactP({ x1: x2, n1: n2, x2: x1, n2: n1 })).toBeCloseTo(p, 12);
        expect(fisherExactP({ x1: n1 - x1, n1, x2: n2 - x2, n2 })).toBeCloseTo(p, 12);
      }),
    );
  });
});

describe('2 × 2 ratios and χ²', () => {
  it('returns null for a risk ratio with no events in an arm and an odds ratio with any empty cell', () => {
    expect(riskRatio({ x1: 0, n1: 20, x2: 5, n2: 20 })).toBeNull();
    expect(riskRatio({ x1: 5, n1: 20, x2: 0, n2: 20 })).toBeNull();
    expect(riskRatio({ x1: 20, n1: 20, x2: 5, n2: 20 })).not.toBeNull();
    expect(oddsRatio({ x1: 20, n1: 20, x2: 5, n2: 20 })).toBeNull();
    expect(oddsRatio({ x1: 3, n1: 20, x2: 0, n2: 20 })).toBeNull();
  });

  it('leaves χ² undefined (NaN) when the table has a zero margin', () => {
    expect(chiSquareTest({ x1: 0, n1: 10, x2: 0, n2: 12 }, { yates: false }).p).toBeNaN();
    expect(chiSquareTest({ x1: 10, n1: 10, x2: 12, n2: 12 }, { yates: true }).statistic).toBeNaN();
  });

  it('has intervals that contain the estimate, Yates never increasing χ², and p in [0, 1]', () => {
    fc.assert(
      fc.property(table, (counts) => {
        for (const interval of [riskRatio(counts), oddsRatio(counts), newcombeDifference(counts)]) {
          if (interval === null) continue;
          expect(interval.ciLow).toBeLessThanOrEqual(interval.estimate + 1e-12);
          expect(interval.ciHigh).toBeGreaterThanOrEqual(interval.estimate - 1e-12);
        }
        const plain = chiSquareTest(counts, { yates: false });
        const corrected = chiSquareTest(counts, { yates: true });
        if (Number.isNaN(plain.statistic)) return;
        expect(corrected.statistic).toBeLessThanOrEqual(plain.statistic + 1e-12);
        for (const p of [plain.p, corrected.p]) {
          expect(p).toBeGreaterThanOrEqual(0);
          expect(p).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('refuses counts that are not a table', () => {
    expect(() => fisherExactP({ x1: 11, n1: 10, x2: 0, n2: 10 })).toThrow(RangeError);
    expect(() => riskRatio({ x1: 1.5, n1: 10, x2: 0, n2: 10 })).toThrow(/x1/);
    expect(() => wilsonInterval(0, 0)).toThrow(/^n must be/);
    expect(() => newcombeDifference({ x1: 0, n1: 5, x2: 0, n2: 0 })).toThrow(/^n2 must be/);
  });
});

describe('Wilson and Newcombe', () => {
  it('Wilson lies in [0, 1] and contains x/n; Newcombe is antisymmetric in the groups', () => {
    fc.assert(
      fc.property(table, ({ x1, n1, x2, n2 }) => {
        const [low, high] = wilsonInterval(x1, n1);
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeLessThanOrEqual(1);
        expect(low).toBeLessThanOrEqual(x1 / n1 + 1e-12);
        expect(high).toBeGreaterThanOrEqual(x1 / n1 - 1e-12);
        const forward = newcombeDifference({ x1, n1, x2, n2 });
        const backward = newcombeDifference({ x1: x2, n1: n2, x2: x1, n2: n1 });
        expect(backward.estimate).toBeCloseTo(-forward.estimate, 12);
        expect(backward.ciLow).toBeCloseTo(-forward.ciHigh, 12);
        expect(backward.ciHigh).toBeCloseTo(-forward.ciLow, 12);
      }),
    );
  });
});

describe("Welch's t and the mean interval", () => {
  it('swapping the groups negates the estimate and keeps p and df', () => {
    fc.assert(
      fc.property(sample, sample, (intervention, control) => {
        const forward = welchTest({ intervention, control });
        if (forward.se === 0) return;
        const backward = welchTest({ intervention: control, control: intervention });
        expect(backward.estimate).toBeCloseTo(-forward.estimate, 12);
        expect(backward.p).toBeCloseTo(forward.p, 12);
        expect(backward.df).toBeCloseTo(forward.df, 9);
        expect(forward.ciLow).toBeLessThanOrEqual(forward.estimate);
        expect(forward.ciHigh).toBeGreaterThanOrEqual(forward.estimate);
        expect(forward.p).toBeGreaterThanOrEqual(0);
        expect(forward.p).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('needs two values a group and gives NaN when neither group varies', () => {
    expect(() => welchTest({ intervention: [0.5], control: [0.4, 0.6] })).toThrow(/at least 2/);
    const flat = welchTest({ intervention: [0.5, 0.5], control: [0.4, 0.4] });
    expect(flat.estimate).toBeCloseTo(0.1, 12);
    expect(flat.p).toBeNaN();
  });

  it('gives a t interval (n − 1 df) around the mean, and the mean alone for one value', () => {
    // t(0.975, 3) = 3.182446305284263 (scipy.stats.t.ppf); values 0.2, 0.4, 0.6, 0.8: mean 0.5, sd √(0.2/3).
    const interval = meanInterval([0.2, 0.4, 0.6, 0.8]);
    expect(interval.mean).toBeCloseTo(0.5, 12);
    expect(interval.ciHigh - interval.mean).toBeCloseTo(3.182446305284263 * Math.sqrt(0.2 / 3 / 4), 10);
    expect(meanInterval([0.7])).toEqual({ n: 1, mean: 0.7, ciLow: 0.7, ciHigh: 0.7 });
  });
});

describe('ANCOVA', () => {
  const participants = fc.array(
    fc.record({
      arm: fc.constantFrom<0 | 1>(0, 1),
      baseline: fc.integer({ min: 0, max: 1000 }),
      outcome: fc.integer({ min: 0, max: 1000 }),
    }),
    { minLength: 6, maxLength: 40 },
  );

  it('moves the arm coefficient by exactly a shift added to the intervention arm, and its interval with it', () => {
    fc.assert(
      fc.property(participants, fc.double({ min: -0.5, max: 0.5, noNaN: true }), (rows, shift) => {
        const arm = rows.map((row) => row.arm);
        const baseline = rows.map((row) => row.baseline / 1000);
        const outcome = rows.map((row) => row.outcome / 1000);
        let fitted;
        try {
          fitted = ancova({ outcome, arm, baseline });
        } catch {
          return; // one arm only, or a baseline that does not vary: refused, as it should be
        }
        const shifted = ancova({ outcome: outcome.map((value, index) => value + shift * arm[index]!), arm, baseline });
        expect(shifted.estimate).toBeCloseTo(fitted.estimate + shift, 9);
        expect(shifted.se).toBeCloseTo(fitted.se, 9);
        expect(fitted.ciLow).toBeLessThanOrEqual(fitted.estimate);
        expect(fitted.ciHigh).toBeGreaterThanOrEqual(fitted.estimate);
      }),
    );
  });

  it('refuses a design without both arms or with a constant baseline', () => {
    expect(() => ancova({ outcome: [0.1, 0.2, 0.3, 0.4], arm: [1, 1, 1, 1], baseline: [0.1, 0.5, 0.2, 0.3] })).toThrow(/both arms/);
    for (const constant of [0.5, 0.3, 0.1, 0.7])
      expect(() => ancova({ outcome: [0.1, 0.2, 0.3, 0.4, 0.9], arm: [0, 1, 0, 1, 1], baseline: Array(5).fill(constant) })).toThrow(
        /both arms/,
      );
    // Baseline a copy of the arm (times a constant): collinear with it.
    expect(() => ancova({ outcome: [0.1, 0.2, 0.3, 0.4], arm: [0, 1, 0, 1], baseline: [0, 0.3, 0, 0.3] })).toThrow(/both arms/);
  });
});

describe('sample sizes', () => {
  it('grow as the difference shrinks, with the continuity correction always larger', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 98 }), fc.integer({ min: 1, max: 40 }), (base, gap) => {
        const p1 = base / 100;
        const p2 = Math.min(0.99, p1 + gap / 100);
        fc.pre(p2 > p1 + 0.005);
        const near = sampleSizeTwoProportions({ p1, p2: p1 + (p2 - p1) / 2 });
        const far = sampleSizeTwoProportions({ p1, p2 });
        expect(near.n).toBeGreaterThan(far.n);
        expect(far.nContinuityCorrected).toBeGreaterThan(far.n);
      }),
    );
    expect(sampleSizeTwoMeans({ sd: 0.25, delta: 0.05 }).n).toBeCloseTo(4 * sampleSizeTwoMeans({ sd: 0.25, delta: 0.1 }).n, 9);
    expect(() => sampleSizeTwoProportions({ p1: 0.5, p2: 0.5 })).toThrow(/must differ/);
    expect(() => sampleSizeTwoMeans({ sd: 0.2, delta: 0.1, power: 1 })).toThrow(/power/);
  });
});

describe('analyseTrialOutcomes', () => {
  const rows: TrialOutcomeRow[] = [0.9, 0.85, 0.7, 0.95, 0.6, 0.8, 0.6, 0.75, 0.5, 0.8, 0.55, 0.65].map((outcome, index) => ({
    patientId: `p${index}`,
    arm: index < 6 ? 'intervention' : 'control',
    baseline: 0.4 + 0.03 * ((index * 7) % 11),
    outcome,
    adherent: outcome >= 0.8 ? 1 : 0,
  }));

  it('compares intervention with control on the same rows the separate functions see', () => {
    const analysis = analyseTrialOutcomes(rows);
    expect(analysis.n).toEqual({ control: 6, intervention: 6 });
    const welch = welchTest({ intervention: rows.slice(0, 6).map((row) => row.outcome), control: rows.slice(6).map((row) => row.outcome) });
    expect(analysis.meanDifference).toEqual({
      estimate: welch.estimate,
      ciLow: welch.ciLow,
      ciHigh: welch.ciHigh,
      p: welch.p,
      df: welch.df,
    });
    // Adherent: 4 of 6 intervention (0.9, 0.85, 0.95, 0.8), 1 of 6 control (0.8).
    expect(analysis.riskDifference).toEqual(newcombeDifference({ x1: 4, n1: 6, x2: 1, n2: 6 }));
    expect(analysis.riskRatio).toEqual(riskRatio({ x1: 4, n1: 6, x2: 1, n2: 6 }));
    expect(analysis.fisherP).toBe(fisherExactP({ x1: 4, n1: 6, x2: 1, n2: 6 }));
    expect(analysis.chiSquareP).toBe(chiSquareTest({ x1: 4, n1: 6, x2: 1, n2: 6 }, { yates: false }).p);
  });

  it('refuses an arm with fewer than two participants', () => {
    expect(() => analyseTrialOutcomes(rows.slice(0, 7))).toThrow(RangeError);
  });
});
