import 'server-only';
/**
 * Queues a training run of the risk model (kind `risk-train`). `automatic` is the page's first visit when no
 * version exists: the default run, deduplicated so any number of visitors start it once. Otherwise a person
 * allowed to train starts a new version with the settings they chose.
 */
import type { Database } from '@/db/client';
import { parseInput } from '@/lib/parse-input';
import { requireActor, requirePermission } from '@/lib/server/authorization';
import { enqueueJob } from '@/lib/server/jobs';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { riskTrainingDefaults, riskTrainingInputSchema, riskTrainJobKind } from '../schemas';

export async function startRiskTraining(options: {
  database: Database;
  actor: SessionUser | null;
  input: unknown;
  automatic?: boolean;
  request?: RequestContext;
}): Promise<{ jobId: string }> {
  if (options.automatic === true) {
    const actor = requireActor(options.actor);
    const { id } = await enqueueJob({
      database: options.database,
      kind: riskTrainJobKind,
      payload: { ...riskTrainingDefaults },
      createdBy: actor.id,
      dedupeKey: `${riskTrainJobKind}:default`,
    });
    return { jobId: id };
  }
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'risk-models:train',
    message: 'Only administrators and government officials can train a new version of the risk model.',
    audit: { database: options.database, action: 'risk-model.train', ...options.request },
  });
  const input = parseInput(riskTrainingInputSchema, options.input, { label: 'The training run' });
  const { id } = await enqueueJob({ database: options.database, kind: riskTrainJobKind, payload: input, createdBy: actor.id });
  return { jobId: id };
}
