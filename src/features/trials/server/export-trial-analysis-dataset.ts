import 'server-only';
/**
 * The analysis dataset as a CSV download (issue 14 item 4): de-identified (pseudonyms), for the roles with
 * 'trials:analysis-dataset', and only once the trial is complete — before then the file would reveal the
 * concealed arms. Every download and every refusal is audited.
 */
import type { Database } from '@/db/client';
import { AppError } from '@/lib/errors';
import { recordAuditEvent } from '@/lib/server/audit';
import { requirePermission } from '@/lib/server/authorization';
import type { RequestContext } from '@/lib/server/request-context';
import type { SessionUser } from '@/lib/server/session';
import { analysisDatasetCsv } from '../analysis-dataset';
import type { TrialStatus } from '../contracts';
import { isoDayOf } from '../protocol';
import { buildTrialAnalysisDataset } from './build-trial-analysis-dataset';
import { findTrial, readTrialState, unknownTrialMessage } from './trial-records';

const action = 'trial.analysis-dataset.export';
const statusWords: Record<Exclude<TrialStatus, 'complete'>, string> = {
  'set-up': 'still being set up',
  recruiting: 'still recruiting',
  'follow-up': 'in follow-up',
};

export async function exportTrialAnalysisDataset(options: {
  database: Database;
  trialId: string;
  actor: Pick<SessionUser, 'id' | 'role'> | null;
  request: RequestContext;
  now: Date;
}): Promise<{ filename: string; csv: string }> {
  const { database, trialId, request } = options;
  const actor = await requirePermission({
    actor: options.actor,
    permission: 'trials:analysis-dataset',
    message: 'Only clinicians, government officials and admins may download the analysis dataset; every role sees the aggregated results.',
    audit: { database, action, ...request },
  });
  const trial = await findTrial(database, trialId);
  if (trial === null) throw new AppError('not_found', unknownTrialMessage);
  // The status first (one aggregate query): a refused download reads no outcome.
  const { status } = await readTrialState(database, trial, isoDayOf(options.now));
  if (status !== 'complete') {
    await recordAuditEvent(database, {
      action,
      outcome: 'failure',
      actorUserId: actor.id,
      ...request,
      details: { trialId, status },
    });
    throw new AppError(
      'conflict',
      `The analysis dataset is available once the trial is complete; it is ${statusWords[status]}, and until then the file would reveal the concealed arms.`,
    );
  }
  const dataset = await buildTrialAnalysisDataset({ database, trialId, now: options.now });
  const csv = analysisDatasetCsv(dataset.rows, dataset.trial.weeks);
  await recordAuditEvent(database, {
    action,
    outcome: 'success',
    actorUserId: actor.id,
    ...request,
    details: { trialId, rows: dataset.rows.length },
  });
  return { filename: `${trialId.replace(/[^a-z0-9-]/gi, '_')}-analysis-dataset-${dataset.asOf}.csv`, csv };
}
