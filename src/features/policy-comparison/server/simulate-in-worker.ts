/**
 * The comparison's simulation in a worker thread (comparison-worker.ts): synchronous and seconds to minutes long,
 * it would otherwise hold the server's event loop. Used by the background job and by the start-up warm-up.
 */
import 'server-only';
import type { JobContext } from '@/lib/server/jobs';
import { runInWorkerThread } from '@/lib/server/worker-thread';
import type { ComparisonWorkerInput } from './comparison-worker';
import type { PolicySimulation } from './simulate-policies';

/** The simulation in a worker thread; without a job context (the start-up warm-up) it reports no progress. */
export function simulateInWorker(options: { patients: number; seed: number; context?: JobContext }): Promise<PolicySimulation[]> {
  const input: ComparisonWorkerInput = { patients: options.patients, seed: options.seed };
  return runInWorkerThread<PolicySimulation[]>({
    entry: 'src/features/policy-comparison/server/comparison-worker.ts',
    name: 'the comparison',
    input,
    context: options.context,
  });
}
