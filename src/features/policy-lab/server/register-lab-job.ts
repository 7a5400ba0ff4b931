/**
 * Background-job handler of lab runs (kind `policy-lab-run`, queue 'simulations', payload: the run's
 * cohort, seed and policy settings). Importing this module registers it; the server loads it at start-up
 * (src/cli/server/register-job-handlers.ts). The simulation runs in a worker thread with progress in
 * patient-days; its summary is the job's result, which is also the cache of runs with the same settings. A
 * job that dies part-way runs again from the start (the simulation is deterministic), so no checkpoint.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseInput } from '@/lib/parse-input';
import { type JobContext, type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { labRunInputSchema, labRunJobKind, type LabRunInput, type LabSummary } from '../schemas';
import type { LabWorkerMessage } from './lab-worker';

// Resolved from the project folder rather than this module's URL: the same path from source or a bundle.
const workerFile = path.resolve(/*turbopackIgnore: true*/ process.cwd(), 'src/features/policy-lab/server/lab-worker.ts');

// The server runs TypeScript through tsx, whose loader a worker thread does not inherit: the worker's
// first (CommonJS) lines load it, then import the TypeScript entry.
const bootstrap = `
const { parentPort, workerData } = require('node:worker_threads');
import('tsx/esm/api')
  .then(({ tsImport }) => tsImport(workerData.entry, workerData.entry))
  .catch((error) => parentPort.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) }));
`;

function simulateInWorker(input: LabRunInput, context: JobContext): Promise<LabSummary> {
  if (!fs.existsSync(workerFile)) return Promise.reject(new Error(`The lab worker is missing: ${workerFile}`));
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: { entry: pathToFileURL(workerFile).href, input } });
    let settled = false;
    let reporting = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      context.signal.removeEventListener('abort', stop);
      finish();
    };
    const stop = () => {
      settle(() => reject(new Error('The lab run was stopped because the server is shutting down.')));
      void worker.terminate();
    };
    context.signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: LabWorkerMessage | { kind: 'failed'; message: string }) => {
      if (message.kind === 'progress') {
        // One progress write at a time; a report that finds one in flight is skipped (the next comes soon).
        if (reporting) return;
        reporting = true;
        void context
          .reportProgress(message.done, message.total)
          .catch(() => undefined)
          .finally(() => {
            reporting = false;
          });
      } else if (message.kind === 'result') settle(() => resolve(message.summary));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The lab worker stopped early (exit code ${code}).`))));
  });
}

export const runLabJob: JobHandler = async (job, context) => {
  const input = parseInput(labRunInputSchema, job.payload, { label: 'The queued lab run' });
  const summary = await simulateInWorker(input, context);
  const total = summary.patients * summary.days * 3;
  await context.reportProgress(total, total);
  return summary as unknown as Record<string, unknown>;
};

registerJobHandler(labRunJobKind, runLabJob, { queue: 'simulations' });
