/**
 * Background-job handler of lab runs (kind `policy-lab-run`, queue 'simulations', payload: the run's
 * cohort, seed and policy settings). Importing this module registers it; the server loads it at start-up
 * (src/cli/server/register-job-handlers.ts). The simulation runs in a worker thread with progress in
 * patient-days; its summary is the job's result, which is also the cache of runs with the same settings. A
 * job that dies part-way runs again from the start (the simulation is deterministic), so no checkpoint.
 */
import 'server-only';
import { parseInput } from '@/lib/parse-input';
import { type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { runInWorkerThread } from '@/lib/server/worker-thread';
import { labRunInputSchema, labRunJobKind, type LabSummary } from '../schemas';

export const runLabJob: JobHandler = async (job, context) => {
  const input = parseInput(labRunInputSchema, job.payload, { label: 'The queued lab run' });
  const summary = await runInWorkerThread<LabSummary>({
    entry: 'src/features/policy-lab/server/lab-worker.ts',
    name: 'the lab run',
    input,
    context,
  });
  const total = summary.patients * summary.days * 3;
  await context.reportProgress(total, total);
  return summary as unknown as Record<string, unknown>;
};

registerJobHandler(labRunJobKind, runLabJob, { queue: 'simulations' });
