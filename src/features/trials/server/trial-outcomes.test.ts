import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseBackends } from '@/db/testing';
import { analyseTrialOutcomes } from '@/engine/statistics/trial';
import { trialOutcomeRows } from '../analysis-dataset';
import { buildTrialAnalysisDataset } from './build-trial-analysis-dataset';
import { getTrialResults } from './get-trial-results';
import { afterFollowUp, duringFollowUp, insertTrialFixture, viewer } from './test-support/trial-fixtures';

describe.each(testDatabaseBackends())('trial outcomes on $name', (backend) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await backend.create();
    await insertTrialFixture(database.database);
  });
  afterEach(async () => {
    await database.dispose();
  });

  it('builds one row per randomised participant with exact dose-level outcomes', async () => {
    const started = performance.now();
    const dataset = await buildTrialAnalysisDataset({ database: database.database, trialId: 't1', now: afterFollowUp });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(dataset.trial.status).toBe('complete');
    const byPseudonym = new Map(dataset.rows.map((row) => [row.pseudonym, row]));
    expect([...byPseudonym.keys()].sort()).toEqual(['+A-001', 'B-002', 'C-003', 'D-004']);

    const a = byPseudonym.get('+A-001')!;
    expect(a.weekly[0]).toBe(3 / 14);
    expect(a.weekly.slice(1)).toEqual(Array.from({ length: 11 }, () => 1));
    expect(a.outcome).toBe((3 + 11 * 14) / 168);
    expect(a.adherent).toBe(1);
    // One dose a day for 84 days, plus the late New York evening dose of 11 January (local) on the last baseline day.
    expect(a.baseline).toBe(85 / 168);
    expect(a.daysToFirstGap).toBeNull();
    expect(a.refillPdc).toBe(42 / 84);
    expect(a.messages).toBe(3);
    expect(a.replies).toBe(1);

    const b = byPseudonym.get('B-002')!;
    expect(b.baseline).toBeNull();
    expect(b.weekly.slice(0, 3)).toEqual([0, 0, 1]);
    expect(b.outcome).toBe(140 / 168);
    expect(b.daysToFirstGap).toBe(7);
    expect(b.refillPdc).toBeNull();
    expect(b.messages).toBe(0);

    expect(byPseudonym.get('C-003')!.outcome).toBe(1);
    const d = byPseudonym.get('D-004')!;
    expect(d.outcome).toBe(0.5);
    expect(d.adherent).toBe(0);
    expect(d.baseline).toBe(42 / 168);
  });

  it('shows only accrual and pooled figures while the trial runs', async () => {
    const results = await getTrialResults({ database: database.database, trialId: 't1', viewer: viewer('patient'), now: duringFollowUp });
    expect(results).toEqual({
      state: 'blinded',
      accrual: [
        { weekStarting: '2026-01-12', cumulative: 4 },
        { weekStarting: '2026-01-19', cumulative: 4 },
        { weekStarting: '2026-01-26', cumulative: 4 },
      ],
      pooled: {
        participants: 4,
        meanAdherence: (17 / 28 + 0 + 1 + 0.5) / 4,
        period: { from: '2026-01-12', to: '2026-01-25' },
      },
    });
    expect(JSON.stringify(results)).not.toMatch(/control|intervention/);
    await expect(getTrialResults({ database: database.database, trialId: 't1', viewer: null, now: duringFollowUp })).rejects.toThrow(
      'No user logged in',
    );
  });

  it('compares the arms once complete, with the same analysis as the dataset gives the command line', async () => {
    const results = await getTrialResults({ database: database.database, trialId: 't1', viewer: viewer('clinician'), now: afterFollowUp });
    if (results.state !== 'unblinded') throw new Error('expected unblinded results');
    const dataset = await buildTrialAnalysisDataset({ database: database.database, trialId: 't1', now: afterFollowUp });
    expect(results.analysis).toEqual(analyseTrialOutcomes(trialOutcomeRows(dataset.rows).rows));
    expect(results.analysis.n).toEqual({ control: 2, intervention: 2 });
    expect(results.period).toEqual({ from: '2026-01-12', to: '2026-04-05' });
    expect(results.population).toContain('all 4 randomised, intention to treat');
    expect(results.population).toContain('1 without a baseline');
    const week1 = results.weekly.filter((week) => week.week === 1);
    expect(week1.map((week) => [week.arm, week.participants])).toEqual([
      ['control', 2],
      ['intervention', 2],
    ]);
    expect(week1[0]!.mean).toBeCloseTo(0.25, 12);
    expect(week1[1]!.mean).toBeCloseTo((3 / 14 + 1) / 2, 12);
    expect(results.baseline[0]).toEqual({ label: 'Participants randomised', values: { control: '2', intervention: '2' } });
    expect(results.secondary.map((endpoint) => endpoint.name)).toEqual([
      'Adherent (dose-level adherence ≥ 0.8)',
      'Refill-based PDC',
      'Time to the first 7-day gap',
      'Reply rate',
    ]);
    expect(results.secondary[0]!.values.control).toMatch(/^1 of 2, 50\.0%/);

    // A government official sees small strata suppressed; a clinician sees them.
    const official = await getTrialResults({
      database: database.database,
      trialId: 't1',
      viewer: viewer('government-official'),
      now: afterFollowUp,
    });
    if (official.state !== 'unblinded') throw new Error('expected unblinded results');
    expect(official.baseline.find((row) => row.label === 'Persona stratum: busy')!.values.control).toBe('<11');
    expect(results.baseline.find((row) => row.label === 'Persona stratum: busy')!.values.control).toBe('2 (100.0%)');
  });
});
