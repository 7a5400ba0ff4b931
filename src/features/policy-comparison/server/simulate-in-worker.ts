/**
 * The comparison's simulation in a worker thread (comparison-worker.ts): synchronous and seconds to minutes long,
 * it would otherwise hold the server's event loop. Used by the background job and by the start-up warm-up.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { JobContext } from '@/lib/server/jobs';
import type { ComparisonWorkerMessage } from './comparison-worker';
import type { PolicySimulation } from './simulate-policies';

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
