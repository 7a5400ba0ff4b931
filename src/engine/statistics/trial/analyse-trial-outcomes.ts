import { ancova } from './ancova';
import { chiSquareTest } from './chi-square';
import { fisherExactP } from './fisher-exact';
import { newcombeDifference } from './proportions';
import { oddsRatio, riskRatio } from './two-by-two';
import type { TrialAnalysis, TrialOutcomeRow } from './types';
import { welchTest } from './welch';

/**
 * The analysis plan's comparisons of intervention against control (intention to treat: every row as randomised),
 * what `trial analyse --json` prints and the results page shows. Throws RangeError when an arm has fewer than
 * 2 participants (no comparison is possible) or the ANCOVA is not identifiable.
 */
export function analyseTrialOutcomes(rows: readonly TrialOutcomeRow[]): TrialAnalysis {
  const intervention = rows.filter((row) => row.arm === 'intervention');
  const control = rows.filter((row) => row.arm === 'control');
  if (intervention.length < 2 || control.length < 2)
    throw new RangeError(
      `each arm needs at least 2 participants to compare (intervention ${intervention.length}, control ${control.length})`,
    );
  const welch = welchTest({ intervention: intervention.map((row) => row.outcome), control: control.map((row) => row.outcome) });
  const adjusted = ancova({
    outcome: rows.map((row) => row.outcome),
    arm: rows.map((row) => (row.arm === 'intervention' ? 1 : 0)),
    baseline: rows.map((row) => row.baseline),
  });
  const counts = {
    x1: intervention.filter((row) => row.adherent === 1).length,
    n1: intervention.length,
    x2: control.filter((row) => row.adherent === 1).length,
    n2: control.length,
  };
  return {
    n: { control: control.length, intervention: intervention.length },
    meanDifference: { estimate: welch.estimate, ciLow: welch.ciLow, ciHigh: welch.ciHigh, p: welch.p, df: welch.df },
    ancova: { estimate: adjusted.estimate, ciLow: adjusted.ciLow, ciHigh: adjusted.ciHigh, p: adjusted.p },
    riskDifference: newcombeDifference(counts),
    riskRatio: riskRatio(counts),
    oddsRatio: oddsRatio(counts),
    fisherP: fisherExactP(counts),
    chiSquareP: chiSquareTest(counts, { yates: false }).p,
  };
}
