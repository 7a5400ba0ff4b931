/**
 * Worker-thread entry of a lab run: three simulations of the cohort (the personalised one a day at a time,
 * as it learns) take about a minute, so they run here and the server's event loop stays free (pages,
 * progress polling, the job's heartbeat).
 */
import 'server-only';
import { workerData } from 'node:worker_threads';
import { workerThreadReporter } from '@/lib/server/worker-thread';
import type { LabRunInput, LabSummary } from '../schemas';
import { simulateLab } from './simulate-lab';

const input = (workerData as { input: LabRunInput }).input;
const reporter = workerThreadReporter<LabSummary>();
reporter.finish(simulateLab({ input, onProgress: reporter.onProgress }));
