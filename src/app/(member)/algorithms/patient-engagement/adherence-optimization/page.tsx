import type { Metadata } from 'next';
import { getDatabase } from '@/db/client';
import { AdherenceOptimizationPanel, type LabRunView } from '@/features/policy-lab/components/adherence-optimization-panel';
import { defaultLabRunInput, type LabRun } from '@/features/policy-lab/schemas';
import { getLabRun } from '@/features/policy-lab/server/get-lab-run';
import { startLabRun } from '@/features/policy-lab/server/start-lab-run';
import { isAppError } from '@/lib/errors';
import { getSignedInUser } from '@/lib/server/current-user';
import { startWhatIfAction } from './actions';

export const metadata: Metadata = { title: 'Medication Adherence Optimisation System' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Only the outcomes cross to the browser (the posterior and weekly shares are for the other lab pages). */
function viewOf(run: LabRun): LabRunView {
  const { summary, ...progress } = run;
  const input = run.input ?? defaultLabRunInput;
  return { run: progress, outcomes: summary?.outcomes ?? null, settings: input.settings, patients: input.patients, seed: input.seed };
}

export default async function AdherenceOptimizationPage({ searchParams }: Props) {
  const actor = await getSignedInUser();
  const database = getDatabase();
  const query = await searchParams;
  const runId = Array.isArray(query.run) ? query.run[0] : query.run;
  const defaultRun = await startLabRun({ database, actor, input: defaultLabRunInput });
  let whatIf: LabRun | null = null;
  let runProblem: string | null = null;
  if (runId !== undefined) {
    try {
      whatIf = await getLabRun({ database, actor, id: runId });
    } catch (error) {
      if (!isAppError(error) || (error.code !== 'validation' && error.code !== 'not_found')) throw error;
      runProblem = `This address does not name a what-if run: ${error.fieldErrors?.run ?? error.message} Run the what-if again.`;
    }
  }
  return (
    <article className="flex flex-col gap-6">
      <h1 className="text-3xl font-semibold tracking-tight">Medication Adherence Optimisation System</h1>
      <p className="max-w-3xl text-muted">
        The optimisation loop end to end: each day the personalised policy reads what the product can observe about a patient (doses
        confirmed, replies, supply, recent messages), draws from its beliefs which message to send, if any, within its settings, and logs
        the decision with its probability; the patient’s confirmed doses, replies and opt-outs become the decision’s reward, and every night
        the beliefs are updated from the day’s rewards. Change the settings below to see, on a simulated cohort, what they would do to
        adherence and to the number of messages patients receive.
      </p>
      <AdherenceOptimizationPanel
        defaultRun={viewOf(defaultRun)}
        whatIf={whatIf === null ? null : viewOf(whatIf)}
        runProblem={runProblem}
        startWhatIf={startWhatIfAction}
      />
    </article>
  );
}
