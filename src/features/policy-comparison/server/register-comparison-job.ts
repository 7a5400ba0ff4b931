/**
 * Background-job handler for large comparisons (kind `policy-comparison`, payload: the comparison
 * settings). Importing this module registers it; the server loads it at start-up (src/cli/server/
 * register-job-handlers.ts). The simulation runs in a worker thread with progress in patient-days; a job
 * that dies part-way simply runs again (the simulation is deterministic), so no checkpoint is kept.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { parseInput } from '@/lib/parse-input';
import { type JobContext, type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { comparisonSettingsSchema } from '../schemas';
import type { ComparisonWorkerMessage } from './comparison-worker';
import { priceComparison } from './price-comparison';
import { cachedSimulations, rememberSimulations } from './simulation-cache';
import { comparisonStartDay, type PolicySimulation } from './simulate-policies';
import { comparisonJobKind } from './start-policy-comparison';

// Resolved from the project folder rather than this module's URL: the same path whether this module runs
// from source (the server, tests) or from a bundle.
const workerFile = path.resolve(/*turbopackIgnore: true*/ process.cwd(), 'src/features/policy-comparison/server/comparison-worker.ts');

// The server runs TypeScript through tsx, whose loader a worker thread does not inherit: the worker's
// first (CommonJS) lines load it, then import the TypeScript entry.
const bootstrap = `
const { parentPort, workerData } = require('node:worker_threads');
import('tsx/esm/api')
  .then(({ tsImport }) => tsImport(workerData.entry, workerData.entry))
  .catch((error) => parentPort.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) }));
`;

/** The simulation in a worker thread; without a job context (the start-up warm-up) it reports no progress. */
export function simulateInWorker(options: { patients: number; seed: number; context?: JobContext }): Promise<PolicySimulation[]> {
  if (!fs.existsSync(workerFile)) return Promise.reject(new Error(`The comparison worker is missing: ${workerFile}`));
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, {
      eval: true,
      workerData: { entry: pathToFileURL(workerFile).href, patients: options.patients, seed: options.seed },
    });
    let settled = false;
    let reporting = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      options.context?.signal.removeEventListener('abort', stop);
      finish();
    };
    const stop = () => {
      settle(() => reject(new Error('The comparison was stopped because the server is shutting down.')));
      void worker.terminate();
    };
    options.context?.signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: ComparisonWorkerMessage | { kind: 'failed'; message: string }) => {
      if (message.kind === 'progress') {
        // One progress write at a time; a report that finds one in flight is skipped (the next comes soon).
        if (reporting || options.context === undefined) return;
        reporting = true;
        void options.context
          .reportProgress(message.done, message.total)
          .catch(() => undefined)
          .finally(() => {
            reporting = false;
          });
      } else if (message.kind === 'result') settle(() => resolve(message.simulations));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The comparison worker stopped early (exit code ${code}).`))));
  });
}

export const runComparisonJob: JobHandler = async (job, context) => {
  const settings = parseInput(comparisonSettingsSchema, job.payload, { label: 'The queued comparison' });
  const cohort = { patients: settings.patients, seed: settings.seed };
  let simulations = cachedSimulations(cohort);
  if (simulations === undefined) {
    simulations = await simulateInWorker({ ...cohort, context });
    rememberSimulations(cohort, simulations);
  }
  const totalPatientDays = simulations.reduce((total, simulation) => total + simulation.patients * simulation.days, 0);
  await context.reportProgress(totalPatientDays, totalPatientDays);
  return priceComparison({ simulations, settings, startDay: comparisonStartDay });
};

registerJobHandler(comparisonJobKind, runComparisonJob, { queue: 'simulations' });
