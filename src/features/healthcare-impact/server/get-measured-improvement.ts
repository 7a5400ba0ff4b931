import 'server-only';
/**
 * The platform's own measured effect on adherence, the national impact model's default improvement (issue 15
 * item 4): the primary binary result of the newest completed trial — the difference in the share adherent,
 * intervention − control (Newcombe 95% CI) — with its follow-up period and population. Read through the
 * trials feature's index; null when no trial is complete, and the page asks the user to set it.
 */
import type { Database } from '@/db/client';
import { getTrialResults, listTrials } from '@/features/trials';
import { AppError } from '@/lib/errors';
import type { SessionUser } from '@/lib/server/session';

/** Trials read, newest first, before giving up: each read builds that trial's analysis dataset. */
const TRIALS_TRIED = 3;

export type MeasuredImprovement = {
  source: 'trial';
  trialName: string;
  synthetic: boolean;
  /** Percentage points, intervention − control, with the 95% CI. */
  points: { estimate: number; ciLow: number; ciHigh: number };
  period: { from: string; to: string };
  population: string;
  participants: { control: number; intervention: number };
};

export async function getMeasuredImprovement(options: {
  database: Database;
  actor: SessionUser | null;
  now?: Date;
}): Promise<MeasuredImprovement | null> {
  const { database, actor } = options;
  if (actor === null) throw new AppError('unauthenticated', 'No user logged in');
  const now = options.now ?? new Date();
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
