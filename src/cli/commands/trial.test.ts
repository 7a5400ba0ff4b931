import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureIo } from './command-io';
import { run } from './trial';

type AncovaReference = {
  arm: (0 | 1)[];
  baseline: number[];
  outcome: number[];
  estimate: number;
  ciLow: number;
  ciHigh: number;
  p: number;
};
const reference = (
  JSON.parse(fs.readFileSync(path.resolve(process.cwd(), '../shared/testdata/statistics/reference.json'), 'utf8')) as {
    ancova: AncovaReference;
  }
).ancova;

/**
 * scipy 1.17's figures for the reference ANCOVA dataset read as a trial (arm 1 = intervention, adherent =
 * outcome ≥ 0.8: 3 of 20 against 0 of 20), printed by:
 *   import json, math
 *   from scipy import stats
 *   r = json.load(open('reference.json'))['ancova']; y, arm = r['outcome'], r['arm']
 *   i = [v for v, a in zip(y, arm) if a == 1]; c = [v for v, a in zip(y, arm) if a == 0]
 *   w = stats.ttest_ind(i, c, equal_var=False); ci = w.confidence_interval(0.95)
 *   x1 = sum(v >= 0.8 for v in i); x2 = sum(v >= 0.8 for v in c); n1, n2 = len(i), len(c)
 *   t = [[x1, n1 - x1], [x2, n2 - x2]]; z = stats.norm.ppf(0.975)
 *   def wilson(x, n):  # as in generate.py
 *       p = x / n; den = 1 + z * z / n; mid = (p + z * z / (2 * n)) / den
 *       half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den; return mid - half, mid + half
 *   (l1, u1), (l2, u2), p1, p2 = wilson(x1, n1), wilson(x2, n2), x1 / n1, x2 / n2
 *   print([n1, n2, x1, x2], [sum(i) / n1 - sum(c) / n2, float(ci.low), float(ci.high), float(w.pvalue), float(w.df)],
 *         [p1 - p2, p1 - p2 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), p1 - p2 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)],
 *         float(stats.fisher_exact(t)[1]), float(stats.chi2_contingency(t, correction=False)[1]))
 */
const scipy = {
  welch: {
    estimate: 0.10230000000000006,
    ciLow: 0.0006932972708811186,
    ciHigh: 0.20390670272911876,
    p: 0.048533403001035355,
    df: 37.847883289449165,
  },
  riskDifference: { estimate: 0.15, ciLow: -0.0383963331262675, ciHigh: 0.36041886474075696 },
  fisherP: 0.2307692307692308,
  chiSquareP: 0.07171853650843422,
};

let directory: string;
beforeEach(() => {
  directory = fs.mkdtempSync(path.join(os.tmpdir(), 'trial-analyse-'));
});
afterEach(() => {
  fs.rmSync(directory, { recursive: true, force: true });
});

function writeCsv(name: string, text: string): string {
  const file = path.join(directory, name);
  fs.writeFileSync(file, text);
  return file;
}

/** The reference dataset as the CLI's CSV, columns shuffled to show the order does not matter. */
function referenceCsv(): string {
  const lines = reference.outcome.map(
    (outcome, index) =>
      `${outcome >= 0.8 ? 1 : 0},${reference.arm[index] === 1 ? 'intervention' : 'control'},P${index + 1},${reference.baseline[index]},${outcome}`,
  );
  return ['adherent,arm,patient_id,baseline,outcome', ...lines, ''].join('\n');
}

function expectClose(actual: number, expected: number, label: string): void {
  expect(Math.abs(actual - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9);
}

describe('cli trial analyse', () => {
  it('prints the analysis as JSON in the shape of issue 14, equal to scipy on the reference dataset', async () => {
    const io = captureIo();
    expect(await run(['analyse', '--input', writeCsv('outcomes.csv', referenceCsv()), '--json'], io)).toBe(0);
    expect(io.err()).toBe('');
    const printed = io.out();
    expect(printed.endsWith('}\n')).toBe(true);
    const result = JSON.parse(printed) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual([
      'n',
      'meanDifference',
      'ancova',
      'riskDifference',
      'riskRatio',
      'oddsRatio',
      'fisherP',
      'chiSquareP',
    ]);
    expect(result.n).toEqual({ control: 20, intervention: 20 });

    const meanDifference = result.meanDifference as Record<string, number>;
    expect(Object.keys(meanDifference)).toEqual(['estimate', 'ciLow', 'ciHigh', 'p', 'df']);
    for (const key of ['estimate', 'ciLow', 'ciHigh', 'p', 'df'] as const)
      expectClose(meanDifference[key]!, scipy.welch[key], `Welch ${key}`);

    const ancova = result.ancova as Record<string, number>;
    expect(Object.keys(ancova)).toEqual(['estimate', 'ciLow', 'ciHigh', 'p']);
    for (const key of ['estimate', 'ciLow', 'ciHigh', 'p'] as const) expectClose(ancova[key]!, reference[key], `ANCOVA ${key}`);

    const riskDifference = result.riskDifference as Record<string, number>;
    for (const key of ['estimate', 'ciLow', 'ciHigh'] as const)
      expectClose(riskDifference[key]!, scipy.riskDifference[key], `risk difference ${key}`);
    // No one adherent in the control arm: neither ratio is estimable.
    expect(result.riskRatio).toBeNull();
    expect(result.oddsRatio).toBeNull();
    expectClose(result.fisherP as number, scipy.fisherP, 'Fisher p');
    expectClose(result.chiSquareP as number, scipy.chiSquareP, 'χ² p');
  });

  it('prints a readable table without --json', async () => {
    const io = captureIo();
    expect(await run(['analyse', '--input', writeCsv('outcomes.csv', referenceCsv())], io)).toBe(0);
    const table = io.out();
    expect(table).toContain('20 intervention, 20 control');
    expect(table).toMatch(/Mean outcome difference \(Welch\)\s+0\.1023\s+0\.0007 to 0\.2039\s+0\.0485/);
    expect(table).toMatch(/ANCOVA\)\s+0\.1080\s+0\.0566 to 0\.1594\s+0\.0001/);
    expect(table).toMatch(/risk ratio \(Katz\)\s+not estimable\s+no one adherent in an arm/);
    expect(table).toMatch(/Fisher's exact test\s+0\.2308/);
  });

  it('lists every problem with its line and field on stderr and exits 2', async () => {
    const io = captureIo();
    const csv = 'patient_id,arm,baseline,outcome,adherent\nP1,control,0.5,0.6,0\nP1,placebo,0.5,1.5,1\nP3,intervention,x,0.9,2\n';
    expect(await run(['analyse', '--input', writeCsv('bad.csv', csv), '--json'], io)).toBe(2);
    expect(io.out()).toBe('');
    const lines = io.err().trimEnd().split('\n');
    expect(lines[0]).toMatch(/has 5 problems:$/);
    expect(lines.slice(1).map((line) => line.trim())).toEqual([
      'line 3, field patient_id: "P1" already appears on line 2',
      'line 3, field arm: "placebo" is not control or intervention',
      'line 3, field outcome: "1.5", expected a number in [0, 1]',
      'line 4, field baseline: "x", expected a number in [0, 1]',
      'line 4, field adherent: "2", expected 0 or 1',
    ]);
  });

  it('refuses an extra column, a missing file, a missing --input and an arm too small to compare, with exit 2', async () => {
    const extra = captureIo();
    expect(await run(['analyse', '--input', writeCsv('extra.csv', 'patient_id,arm,baseline,outcome,adherent,name\n')], extra)).toBe(2);
    expect(extra.err()).toContain('line 1, field name: unexpected column');

    const missing = captureIo();
    expect(await run(['analyse', '--input', path.join(directory, 'absent.csv'), '--json'], missing)).toBe(2);
    expect(missing.err()).toBe(`trial analyse: cannot read ${path.join(directory, 'absent.csv')}: no such file\n`);

    const noInput = captureIo();
    expect(await run(['analyse', '--json'], noInput)).toBe(2);
    expect(noInput.err()).toContain('--input FILE.csv is required');

    const oneArm = captureIo();
    const csv = 'patient_id,arm,baseline,outcome,adherent\nA,control,0.5,0.6,0\nB,control,0.4,0.7,0\nC,intervention,0.6,0.9,1\n';
    expect(await run(['analyse', '--input', writeCsv('small.csv', csv)], oneArm)).toBe(2);
    expect(oneArm.err()).toMatch(/each arm needs at least 2 participants to compare \(intervention 1, control 2\)/);

    const unknown = captureIo();
    expect(await run(['report'], unknown)).toBe(2);
    expect(unknown.err()).toContain('unknown subcommand "report"');
  });

  // Spawns tsx (a few seconds on a loaded machine).
  it('is registered in the command line: npm run cli -- trial analyse --json prints the same JSON', async () => {
    const file = writeCsv('outcomes.csv', referenceCsv());
    const inProcess = captureIo();
    expect(await run(['analyse', '--input', file, '--json'], inProcess)).toBe(0);
    const spawned = spawnSync(path.resolve('node_modules/.bin/tsx'), ['src/cli/main.ts', 'trial', 'analyse', '--input', file, '--json'], {
      encoding: 'utf8',
    });
    expect(spawned.stderr).toBe('');
    expect(spawned.status).toBe(0);
    expect(spawned.stdout).toBe(inProcess.out());
  }, 30_000);
});
