/**
 * Worker-thread entry of a large comparison: the simulation is synchronous and takes tens of seconds for
 * tens of thousands of patients, so it runs here and the server's event loop stays free (pages, progress
 * polling, the job's heartbeat). Posts progress at most four times a second, then the result.
 */
import 'server-only';
import { parentPort, workerData } from 'node:worker_threads';
import { simulatePolicies } from './simulate-policies';

export type ComparisonWorkerInput = { patients: number; seed: number };

export type ComparisonWorkerMessage =
  { kind: 'progress'; done: number; total: number } | { kind: 'result'; simulations: ReturnType<typeof simulatePolicies> };

const input = workerData as ComparisonWorkerInput;
const post = (message: ComparisonWorkerMessage) => parentPort?.postMessage(message);
let lastReport = 0;
const simulations = simulatePolicies({
  patients: input.patients,
  seed: input.seed,
  onProgress: (done, total) => {
    const now = Date.now();
    if (now - lastReport < 250) return;
    lastReport = now;
    post({ kind: 'progress', done, total });
  },
});
post({ kind: 'result', simulations });
