import { describe, expect, it } from 'vitest';
import { analysisDatasetCsv, type TrialAnalysisRow, trialOutcomeRows } from './analysis-dataset';

const row = (overrides: Partial<TrialAnalysisRow>): TrialAnalysisRow => ({
  pseudonym: 'P-1',
  arm: 'control',
  stratum: 'busy',
  enrolledOn: '2026-01-12',
  ageBand: null,
  sex: null,
  conditionsCount: 0,
  baseline: 0.5,
  outcome: 0.9,
  takenDoses: 151,
  scheduledDoses: 168,
  weeksReached: 12,
  adherent: 1,
  refillPdc: null,
  daysToFirstGap: null,
  messages: 0,
  replies: 0,
  weekly: [1, 0.5],
  ...overrides,
});

describe('trialOutcomeRows', () => {
  it('imputes the mean observed baseline of the analysed and leaves out those without an outcome', () => {
    const result = trialOutcomeRows([
      row({ pseudonym: 'A', baseline: 0.2 }),
      row({ pseudonym: 'B', baseline: 0.6, arm: 'intervention', outcome: 0.7, adherent: 0 }),
      row({ pseudonym: 'C', baseline: null }),
      row({ pseudonym: 'D', baseline: 1, outcome: null, adherent: null }),
    ]);
    expect(result.rows).toEqual([
      { patientId: 'A', arm: 'control', baseline: 0.2, outcome: 0.9, adherent: 1 },
      { patientId: 'B', arm: 'intervention', baseline: 0.6, outcome: 0.7, adherent: 0 },
      { patientId: 'C', arm: 'control', baseline: 0.4, outcome: 0.9, adherent: 1 },
    ]);
    expect(result).toMatchObject({ withoutOutcome: 1, baselineImputed: 1, imputedBaseline: 0.4 });
  });
});

describe('analysisDatasetCsv', () => {
  it('writes the columns, flags imputed baselines and neutralises formula-like text', () => {
    const csv = analysisDatasetCsv(
      [row({ pseudonym: '=HYPERLINK("x")', stratum: '@risk', baseline: null }), row({ pseudonym: '-2', baseline: 0.25 })],
      2,
    );
    expect(csv.split('\r\n')).toEqual([
      'patient_id,arm,stratum,baseline,outcome,adherent,refill_pdc,days_to_first_gap,messages,replies,week_1,week_2,baseline_imputed',
      `"'=HYPERLINK(""x"")",control,'@risk,0.25,0.9,1,,,0,0,1,0.5,1`,
      "'-2,control,busy,0.25,0.9,1,,,0,0,1,0.5,0",
      '',
    ]);
  });
});
