/**
 * Background-job handlers of the risk model: the nightly scoring (kind `risk-score`, queue 'default', a
 * chain of one job per UTC night like the records prune) and training (kind `risk-train`, queue 'simulations'; payload: the
 * training input). Importing this module registers it; the server loads it at start-up
 * (src/cli/server/register-job-handlers.ts). Progress is in steps (histories, the network's epochs,
 * targeting, storing). A job that dies part-way runs again from the start as a new version (training is
 * deterministic for a seed), so no checkpoint; trainRiskModel marks the interrupted version failed.
 */
import 'server-only';
import { type Database, getDatabase } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { enqueueJob, type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { riskTrainingInputSchema, riskTrainJobKind } from '../schemas';
import { scoreRiskPatients } from './score-risk-patients';
import { trainRiskModel } from './train-risk-model';

export const runRiskTrainingJob: JobHandler = async (job, context) => {
  const input = parseInput(riskTrainingInputSchema, job.payload, { label: 'The queued training run' });
  const trained = await trainRiskModel({
    database: getDatabase(),
    input,
    createdBy: job.createdBy,
    jobId: job.id,
    onProgress: (_stage, done, total) => context.reportProgress(done, total),
  });
  // Score with the new version now rather than at the next night's run.
  await enqueueJob({ database: getDatabase(), kind: riskScoreJobKind, dedupeKey: `${riskScoreJobKind}:model:${trained.id}` });
  return { modelId: trained.id, version: trained.version };
};

registerJobHandler(riskTrainJobKind, runRiskTrainingJob, { queue: 'simulations' });

export const riskScoreJobKind = 'risk-score';
const dayMs = 86_400_000;
/** 03:00 UTC: after the day's doses are in, before clinicians start. */
const scoreMinuteUtc = 3 * 60;

/** Queues the scoring of the UTC date holding `at` (due at 03:00; at once when that has passed), unless it exists: one per night however many instances run. */
export function ensureRiskScoring(options: { database: Database; at: Date }): Promise<{ id: string; created: boolean }> {
  const dayStart = Math.floor(options.at.getTime() / dayMs) * dayMs;
  return enqueueJob({
    database: options.database,
    kind: riskScoreJobKind,
    runAt: new Date(dayStart + scoreMinuteUtc * 60_000),
    dedupeKey: `${riskScoreJobKind}:${options.at.toISOString().slice(0, 10)}`,
  });
}

export const runRiskScoringJob: JobHandler = async () => {
  // The next night first: a run that fails still leaves the chain going (and this one is retried).
  const next = await ensureRiskScoring({ database: getDatabase(), at: new Date(Date.now() + dayMs) });
  const result = await scoreRiskPatients({ database: getDatabase() });
  return { ...result, nextScoringJobId: next.id };
};

registerJobHandler(riskScoreJobKind, runRiskScoringJob, { queue: 'default' });
