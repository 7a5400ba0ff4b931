import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { LabRunStatus } from '@/features/policy-lab/components/lab-run-status';
import { LearningVisualizationView } from '@/features/policy-lab/components/learning-visualization-view';
import { defaultLabRunInput } from '@/features/policy-lab/schemas';
import { startLabRun } from '@/features/policy-lab/server/start-lab-run';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Algorithm Learning Visualization' };

// The live policy's versions are not read here yet (see docs/decisions/024-policy-lab.md).
const livePolicyNote =
  'The live policy has not learned yet: its nightly versions, learned from real patients’ logged decisions, are not shown on this page yet. Everything above is the simulated policy.';

export default async function LearningVisualizationPage() {
  const actor = await getSignedInUser();
  const { summary, ...run } = await startLabRun({ database: getDatabase(), actor, input: defaultLabRunInput });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Algorithm Learning Visualization</h1>
      <p className="max-w-3xl text-muted">
        What the personalised policy believes about each message, per persona, and how those beliefs changed week by week on a simulated
        cohort.
      </p>
      {summary !== null ? (
        <LearningVisualizationView summary={summary} livePolicyNote={livePolicyNote} />
      ) : (
        <LabRunStatus run={run} label="Default lab run" />
      )}
    </article>
  );
}
