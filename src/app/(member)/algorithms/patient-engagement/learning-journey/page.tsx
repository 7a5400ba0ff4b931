import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { LabRunStatus } from '@/features/policy-lab/components/lab-run-status';
import { LearningJourneyView } from '@/features/policy-lab/components/learning-journey-view';
import { defaultLabRunInput } from '@/features/policy-lab/schemas';
import { startLabRun } from '@/features/policy-lab/server/start-lab-run';
import { getSignedInUser } from '@/lib/server/current-user';

export const metadata: Metadata = { title: 'Algorithm Learning Journey' };

export default async function LearningJourneyPage() {
  const actor = await getSignedInUser();
  // The default lab run: started the first time a lab page is opened, then read from its stored result.
  const { summary, ...run } = await startLabRun({ database: getDatabase(), actor, input: defaultLabRunInput });
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Algorithm Learning Journey</h1>
      <p className="max-w-3xl text-muted">
        How the personalised message policy learns, shown on the simulator, where the truth is known: which messages it chose for each
        persona week by week as its beliefs sharpened, and how much it gained or lost against sending at random and against the fixed daily
        reminder. Every figure here is simulated.
      </p>
      {summary !== null ? <LearningJourneyView summary={summary} /> : <LabRunStatus run={run} label="Default lab run" />}
    </article>
  );
}
