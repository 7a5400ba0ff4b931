/**
 * Background-job handler of risk model training (kind `risk-train`, queue 'simulations'; payload: the
 * training input). Importing this module registers it; the server loads it at start-up
 * (src/cli/server/register-job-handlers.ts). Progress is in steps (histories, the network's epochs,
 * targeting, storing). A job that dies part-way runs again from the start as a new version (training is
 * deterministic for a seed), so no checkpoint; trainRiskModel marks the interrupted version failed.
 */
import 'server-only';
import { getDatabase } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { riskTrainingInputSchema, riskTrainJobKind } from '../schemas';
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
  return { modelId: trained.id, version: trained.version };
};

registerJobHandler(riskTrainJobKind, runRiskTrainingJob, { queue: 'simulations' });
