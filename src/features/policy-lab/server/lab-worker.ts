/**
 * Worker-thread entry of a lab run: three simulations of the cohort (the personalised one a day at a time,
 * as it learns) take about a minute, so they run here and the server's event loop stays free (pages,
 * progress polling, the job's heartbeat). Posts progress at most four times a second, then the summary.
 */
import 'server-only';
import { parentPort, workerData } from 'node:worker_threads';
import type { LabRunInput, LabSummary } from '../schemas';
import { simulateLab } from './simulate-lab';

export type LabWorkerMessage = { kind: 'progress'; done: number; total: number } | { kind: 'result'; summary: LabSummary };

const input = (workerData as { input: LabRunInput }).input;
const post = (message: LabWorkerMessage) => parentPort?.postMessage(message);
let lastReport = 0;
const summary = simulateLab({
  input,
  onProgress: (done, total) => {
    const now = Date.now();
    if (now - lastReport < 250) return;
    lastReport = now;
    post({ kind: 'progress', done, total });
  },
});
post({ kind: 'result', summary });
