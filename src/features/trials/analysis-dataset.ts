/**
 * The trial's analysis dataset as the results and the CSV export read it (docs/decisions/029): the rows
 * the statistics receive and the CSV the command line reads. Browser-safe and pure, so the page's analysis
 * and `trial analyse --input <export>` cannot drift apart: both go through `trialOutcomeRows`.
 */
import type { TrialOutcomeRow } from '@/engine/statistics/trial';
import { csvCell } from '@/lib/csv';
import type { TrialArm } from './contracts';
import { adherentThreshold } from './protocol';

export type TrialAnalysisRow = {
  pseudonym: string;
  arm: TrialArm;
  stratum: string | null;
  /** ISO date: the first day of week 1. */
  enrolledOn: string;
  ageBand: string | null;
  sex: string | null;
  conditionsCount: number;
  /** Dose-level adherence in the 12 weeks before enrolment (days with an active regimen); null: no dose was due. */
  baseline: number | null;
  /** Dose-level adherence over the weeks reached (all 12 once the trial is complete); null: none reached or no dose due. */
  outcome: number | null;
  takenDoses: number;
  scheduledDoses: number;
  weeksReached: number;
  adherent: 0 | 1 | null;
  /** Refill-based PDC (PQA) over the weeks reached; null without a fill or before week 1 is over. */
  refillPdc: number | null;
  /** Days from enrolment to the end of the first run of 7 days without a confirmed-taken dose; null: none. */
  daysToFirstGap: number | null;
  /** Outbound messages (a WhatsApp message and its SMS fallback count once) and inbound replies in the weeks reached. */
  messages: number;
  replies: number;
  /** Week k at index k − 1; null when not reached or no dose was due. */
  weekly: (number | null)[];
};

export type TrialOutcomeRows = {
  /** Participants with an outcome (a dose was due in follow-up), as analyseTrialOutcomes takes them. */
  rows: TrialOutcomeRow[];
  /** Randomised participants without an outcome: no dose was due in their follow-up. */
  withoutOutcome: number;
  /** Analysed participants without a baseline, given `imputedBaseline` in the ANCOVA. */
  baselineImputed: number;
  /** The mean observed baseline of the analysed participants (both arms), or null when none had one. */
  imputedBaseline: number | null;
};

/**
 * The rows of the primary analysis. A missing baseline (no dose due in the 12 weeks before enrolment) is
 * replaced by the mean observed baseline over both arms: the ANCOVA needs a value, and mean imputation of
 * a baseline covariate keeps the arm estimate unbiased in a randomised trial (White & Thompson 2005).
 */
export function trialOutcomeRows(dataset: readonly TrialAnalysisRow[]): TrialOutcomeRows {
  const analysed = dataset.filter((row) => row.outcome !== null);
  const observed = analysed.flatMap((row) => (row.baseline === null ? [] : [row.baseline]));
  const imputedBaseline = observed.length === 0 ? null : observed.reduce((sum, value) => sum + value, 0) / observed.length;
  return {
    rows: analysed.map((row) => ({
      patientId: row.pseudonym,
      arm: row.arm,
      baseline: row.baseline ?? imputedBaseline ?? 0,
      outcome: row.outcome!,
      adherent: row.outcome! >= adherentThreshold ? 1 : 0,
    })),
    withoutOutcome: dataset.length - analysed.length,
    baselineImputed: analysed.length - observed.length,
    imputedBaseline,
  };
}

export const analysisDatasetCsvColumns = [
  'patient_id',
  'arm',
  'stratum',
  'baseline',
  'outcome',
  'adherent',
  'refill_pdc',
  'days_to_first_gap',
  'messages',
  'replies',
] as const;

/**
 * The analysis dataset as CSV, one row per randomised participant. `baseline` holds the imputed mean where
 * none was observed (flagged in `baseline_imputed`) so the file gives the page's analysis when fed to
 * `trial analyse --input`; a participant with no dose due in follow-up has an empty `outcome`.
 */
export function analysisDatasetCsv(dataset: readonly TrialAnalysisRow[], weeks: number): string {
  const { imputedBaseline } = trialOutcomeRows(dataset);
  const header = [...analysisDatasetCsvColumns, ...Array.from({ length: weeks }, (_, index) => `week_${index + 1}`), 'baseline_imputed'];
  const lines = [header.join(',')];
  for (const row of dataset) {
    const baseline = row.outcome === null ? row.baseline : (row.baseline ?? imputedBaseline ?? 0);
    lines.push(
      [
        row.pseudonym,
        row.arm,
        row.stratum,
        baseline,
        row.outcome,
        row.adherent,
        row.refillPdc,
        row.daysToFirstGap,
        row.messages,
        row.replies,
        ...Array.from({ length: weeks }, (_, index) => row.weekly[index] ?? null),
        row.baseline === null ? 1 : 0,
      ]
        .map(csvCell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
