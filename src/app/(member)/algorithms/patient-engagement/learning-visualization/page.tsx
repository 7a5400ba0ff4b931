import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { LabRunStatus } from '@/features/policy-lab/components/lab-run-status';
import { listPolicyStates } from '@/features/policy-learning';
import { LearningVisualizationView } from '@/features/policy-lab/components/learning-visualization-view';
import { LivePolicyVersions } from '@/features/policy-lab/components/live-policy-versions';
import { defaultLabRunInput } from '@/features/policy-lab/schemas';
import { startLabRun } from '@/features/policy-lab/server/start-lab-run';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Algorithm Learning Visualization' };

/** The live policy's latest stored versions shown (each carries its per-patient state, so a few only). */
const liveVersionsShown = 6;

export default async function LearningVisualizationPage() {
  const actor = await getSignedInUser();
  const database = getDatabase();
  const { summary, ...run } = await startLabRun({ database, actor, input: defaultLabRunInput });
  const liveVersions = await listPolicyStates({ database, limit: liveVersionsShown });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Algorithm Learning Visualization</h1>
      <p className="max-w-3xl text-muted">
        What the personalised policy believes about each message, per persona, and how those beliefs changed week by week on a simulated
        cohort.
      </p>
      {summary !== null ? (
        <LearningVisualizationView summary={summary} livePolicy={<LivePolicyVersions versions={liveVersions} />} />
      ) : (
        <LabRunStatus run={run} label="Default lab run" />
      )}
    </article>
  );
}
