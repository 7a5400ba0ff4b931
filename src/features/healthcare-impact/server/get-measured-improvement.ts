import 'server-only';
/**
 * The platform's own effects on adherence the national impact model can start from (issue 15 item 4):
 * - trial: the primary binary result of the newest completed trial — the difference in the share adherent,
 *   intervention − control (Newcombe 95% CI) — with its follow-up period and population, read through the
 *   trials feature's index;
 * - comparison: the simulated comparison's personalised policy − no messages (share at PDC ≥ 0.8 over a
 *   simulated year, one synthetic cohort), read through the policy-comparison index; simulated, no CI.
 * The page starts from the trial when there is one (a measurement on patients beats a simulation), else from
 * the comparison, else from 0 set by the user; it offers the others to choose.
 */
import type { Database } from '@/db/client';
import { getSimulatedAdherenceEffect, type SimulatedAdherenceEffect } from '@/features/policy-comparison';
import { getTrialResults, listTrials } from '@/features/trials';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';
import { defaultImprovementSource, type ImprovementSource } from '../improvement-source';

/** Trials read, newest first, before giving up: each read builds that trial's analysis dataset. */
const TRIALS_TRIED = 3;

export type TrialImprovement = {
  source: 'trial';
  trialName: string;
  synthetic: boolean;
  /** Percentage points, intervention − control, with the 95% CI. */
  points: { estimate: number; ciLow: number; ciHigh: number };
  period: { from: string; to: string };
  population: string;
  participants: { control: number; intervention: number };
};

export type ComparisonImprovement = { source: 'comparison' } & SimulatedAdherenceEffect;

export type MeasuredImprovements = {
  trial: TrialImprovement | null;
  comparison: ComparisonImprovement | null;
  /** Where the page's improvement starts. */
  initial: ImprovementSource;
};

async function findTrialImprovement(options: { database: Database; actor: SessionUser; now: Date }): Promise<TrialImprovement | null> {
  const { database, actor, now } = options;
  const trials = await listTrials({ database, viewer: actor });
  for (const trial of trials.slice(0, TRIALS_TRIED)) {
    const results = await getTrialResults({ database, trialId: trial.id, viewer: actor, now });
    if (results.state !== 'unblinded') continue;
    const difference = results.analysis.riskDifference;
    return {
      source: 'trial',
      trialName: trial.name,
      synthetic: trial.synthetic,
      points: { estimate: difference.estimate * 100, ciLow: difference.ciLow * 100, ciHigh: difference.ciHigh * 100 },
      period: results.period,
      population: results.population,
      participants: results.analysis.n,
    };
  }
  return null;
}

export async function getMeasuredImprovement(options: {
  database: Database;
  actor: SessionUser | null;
  now?: Date;
}): Promise<MeasuredImprovements> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const trial = await findTrialImprovement({ database, actor, now: options.now ?? new Date() });
  const effect = getSimulatedAdherenceEffect();
  const comparison: ComparisonImprovement | null = effect === null ? null : { source: 'comparison', ...effect };
  return { trial, comparison, initial: defaultImprovementSource({ trial, comparison }) };
}
