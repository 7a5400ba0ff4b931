/**
 * The shapes of the trial statistics (issue 14). `TrialAnalysis` is what `trial analyse --json` prints and
 * what the trial page shows: difference = intervention − control, 95% intervals, two-sided p-values.
 */
export type Interval = { estimate: number; ciLow: number; ciHigh: number };

/** One analysed participant: `baseline` and `outcome` in [0, 1], `adherent` 0 or 1. */
export type TrialOutcomeRow = {
  patientId: string;
  arm: 'control' | 'intervention';
  baseline: number;
  outcome: number;
  adherent: 0 | 1;
};

export type TrialAnalysis = {
  n: { control: number; intervention: number };
  /** Welch's t: the difference in mean outcome with its 95% CI, two-sided p and Welch–Satterthwaite df. */
  meanDifference: Interval & { p: number; df: number };
  /** OLS of outcome on arm and baseline: the arm coefficient, its t-based 95% CI and p. */
  ancova: Interval & { p: number };
  /** Share adherent, intervention − control, Newcombe hybrid score 95% CI. */
  riskDifference: Interval;
  /** Katz log-scale 95% CI; null when a cell makes it undefined (no events in an arm). */
  riskRatio: Interval | null;
  /** Woolf log-scale 95% CI; null when a cell of the 2×2 table is 0. */
  oddsRatio: Interval | null;
  fisherP: number;
  /** Pearson's χ² without continuity correction. */
  chiSquareP: number;
};
