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
import { buildTrialAnalysisDataset } from './build-trial-analysis-dataset';

const action = 'trial.analysis-dataset.export';

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
  const dataset = await buildTrialAnalysisDataset({ database, trialId, now: options.now });
  if (dataset.trial.status !== 'complete') {
    await recordAuditEvent(database, {
      action,
      outcome: 'failure',
      actorUserId: actor.id,
      ...request,
      details: { trialId, status: dataset.trial.status },
    });
    throw new AppError(
      'conflict',
      `The analysis dataset is available once the trial is complete (it is in ${dataset.trial.status}): until then it would reveal the concealed arms.`,
    );
  }
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
