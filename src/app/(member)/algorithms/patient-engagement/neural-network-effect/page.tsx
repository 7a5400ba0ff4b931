import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { RiskEvaluationView } from '@/features/risk/components/risk-evaluation-view';
import { RiskTrainingStatus } from '@/features/risk/components/risk-training-status';
import { getRiskEvaluation } from '@/features/risk/server/get-risk-evaluation';
import { startRiskTraining } from '@/features/risk/server/start-risk-training';
import { hasPermission } from '@/lib/permissions';
import { getSignedInUser } from '@/lib/server/current-user';
import { startRiskTrainingAction } from './actions';

export const metadata: Metadata = { title: 'Neural Network Effect Analysis' };

export default async function NeuralNetworkEffectPage() {
  const database = getDatabase();
  const actor = await getSignedInUser();
  let { latest, ready } = await getRiskEvaluation({ database, actor });
  // The first visit ever starts the default training run (once, whoever comes first); later visits read the stored result.
  let jobId: string | null = null;
  if (latest === null) jobId = (await startRiskTraining({ database, actor, input: {}, automatic: true })).jobId;
  else if (latest.status === 'running') jobId = latest.jobId;
  if (latest === null) ({ latest, ready } = await getRiskEvaluation({ database, actor }));
  const canTrain = actor !== null && hasPermission(actor.role, 'risk-models:train');
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Neural Network Effect Analysis</h1>
      <p className="max-w-3xl text-muted">
        Who is about to stop taking their medicines? A small neural network predicts, at the start of each week, whether a patient’s
        confirmed doses will fall below 80% of those due over the next 7 days, from what the product observes (recent confirmations, supply
        left and refill gaps, replies, opt-outs and message load, persona, age band, conditions and number of medicines). It is judged
        against logistic regression and the simple rule “risk = 1 − last 30 days’ adherence” on later weeks than it was trained on.
      </p>
      <RiskTrainingStatus jobId={jobId} startTraining={canTrain ? startRiskTrainingAction : null} />
      {latest?.status === 'failed' && (
        <p>The latest training run (version {latest.version}) failed; the last completed version is shown.</p>
      )}
      {ready === null ? (
        <p>No version of the risk model has been trained yet: the first is being trained now.</p>
      ) : (
        <RiskEvaluationView model={ready} />
      )}
    </article>
  );
}
