/**
 * Golden vectors: every function against the values numpy/scipy computed in
 * ../shared/testdata/statistics/reference.json (generate.py beside it shows the formulas), read at test time,
 * never copied. Agreement to 1e-9 (relative above 1: sample sizes and odds ratios are in the hundreds and tens).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ancova,
  chiSquareTest,
  fisherExactP,
  newcombeDifference,
  oddsRatio,
  riskRatio,
  sampleSizeTwoMeans,
  sampleSizeTwoProportions,
  welchTest,
  wilsonInterval,
  type Interval,
} from './index';

type Counts = { x1: number; n1: number; x2: number; n2: number };
type Reference = {
  welch: {
    intervention: number[];
    control: number[];
    difference: number;
    se: number;
    df: number;
    t: number;
    p: number;
    ciLow: number;
    ciHigh: number;
  };
  wilson: { x: number; n: number; ci: [number, number] }[];
  newcombe: (Counts & { difference: number; ci: [number, number] })[];
  twoByTwo: (Counts & { riskRatio: Interval; oddsRatio: Interval; fisherP: number; chiSquareP: number; chiSquareYatesP: number })[];
  ancova: { arm: (0 | 1)[]; baseline: number[]; outcome: number[]; estimate: number; se: number; ciLow: number; ciHigh: number; p: number };
  sampleSizeProportions: { p1: number; p2: number; n: number; nContinuityCorrected: number }[];
  sampleSizeMeans: { sd: number; delta: number; n: number }[];
};

const reference = JSON.parse(
  fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/statistics/reference.json'), 'utf8'),
) as Reference;

/** |actual − expected| ≤ 1e-9, relative to the value when it exceeds 1. */
function expectClose(actual: number | undefined, expected: number, label: string): void {
  expect(actual, label).toBeTypeOf('number');
  const error = Math.abs(actual! - expected) / Math.max(1, Math.abs(expected));
  expect(error, `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

function expectInterval(actual: Interval | null, expected: Interval, label: string): void {
  expect(actual, label).not.toBeNull();
  expectClose(actual!.estimate, expected.estimate, `${label} estimate`);
  expectClose(actual!.ciLow, expected.ciLow, `${label} ciLow`);
  expectClose(actual!.ciHigh, expected.ciHigh, `${label} ciHigh`);
}

describe('trial statistics match scipy', () => {
  it("Welch's t: difference, se, df, t, p and 95% CI", () => {
    const expected = reference.welch;
    const result = welchTest({ intervention: expected.intervention, control: expected.control });
    expectClose(result.estimate, expected.difference, 'estimate');
    expectClose(result.se, expected.se, 'se');
    expectClose(result.df, expected.df, 'df');
    expectClose(result.t, expected.t, 't');
    expectClose(result.p, expected.p, 'p');
    expectClose(result.ciLow, expected.ciLow, 'ciLow');
    expectClose(result.ciHigh, expected.ciHigh, 'ciHigh');
  });

  it.each(reference.wilson)('Wilson interval for $x of $n', ({ x, n, ci }) => {
    const [low, high] = wilsonInterval(x, n);
    expectClose(low, ci[0], 'low');
    expectClose(high, ci[1], 'high');
  });

  it.each(reference.newcombe)('Newcombe hybrid score interval for $x1/$n1 − $x2/$n2', ({ difference, ci, ...counts }) => {
    expectInterval(newcombeDifference(counts), { estimate: difference, ciLow: ci[0], ciHigh: ci[1] }, 'difference');
  });

  it.each(reference.twoByTwo)('2 × 2 table $x1/$n1 vs $x2/$n2: RR, OR, Fisher, χ² with and without Yates', (table) => {
    const counts = { x1: table.x1, n1: table.n1, x2: table.x2, n2: table.n2 };
    expectInterval(riskRatio(counts), table.riskRatio, 'risk ratio');
    expectInterval(oddsRatio(counts), table.oddsRatio, 'odds ratio');
    expectClose(fisherExactP(counts), table.fisherP, 'Fisher p');
    expectClose(chiSquareTest(counts, { yates: false }).p, table.chiSquareP, 'χ² p');
    expectClose(chiSquareTest(counts, { yates: true }).p, table.chiSquareYatesP, 'χ² Yates p');
  });

  it('ANCOVA: arm coefficient, se, 95% CI and p of outcome ~ 1 + arm + baseline', () => {
    const expected = reference.ancova;
    const result = ancova({ outcome: expected.outcome, arm: expected.arm, baseline: expected.baseline });
    expectClose(result.estimate, expected.estimate, 'estimate');
    expectClose(result.se, expected.se, 'se');
    expect(result.df).toBe(expected.outcome.length - 3);
    expectClose(result.ciLow, expected.ciLow, 'ciLow');
    expectClose(result.ciHigh, expected.ciHigh, 'ciHigh');
    expectClose(result.p, expected.p, 'p');
  });

  it.each(reference.sampleSizeProportions)('sample size per arm for $p1 vs $p2', ({ p1, p2, n, nContinuityCorrected }) => {
    const result = sampleSizeTwoProportions({ p1, p2 });
    expectClose(result.n, n, 'n');
    expectClose(result.nContinuityCorrected, nContinuityCorrected, 'n with continuity correction');
  });

  it.each(reference.sampleSizeMeans)('sample size per arm for sd $sd, delta $delta', ({ sd, delta, n }) => {
    expectClose(sampleSizeTwoMeans({ sd, delta }).n, n, 'n');
  });
});
