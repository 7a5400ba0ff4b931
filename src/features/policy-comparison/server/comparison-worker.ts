/**
 * Worker-thread entry of a large comparison: the simulation is synchronous and takes tens of seconds for
 * tens of thousands of patients, so it runs here and the server's event loop stays free (pages, progress
 * polling, the job's heartbeat).
 */
import 'server-only';
import { workerData } from 'node:worker_threads';
import { workerThreadReporter } from '@/lib/server/worker-thread';
import { simulatePolicies } from './simulate-policies';

export type ComparisonWorkerInput = { patients: number; seed: number };

const input = (workerData as { input: ComparisonWorkerInput }).input;
const reporter = workerThreadReporter<ReturnType<typeof simulatePolicies>>();
reporter.finish(simulatePolicies({ patients: input.patients, seed: input.seed, onProgress: reporter.onProgress }));
