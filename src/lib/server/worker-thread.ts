/**
 * A synchronous, seconds-to-minutes computation (a simulation) in a worker thread, so the server's event loop
 * stays free for pages, progress polling and the job's heartbeat. `runInWorkerThread` starts the worker and
 * relays its progress to the job; the worker's entry module reports through `workerThreadReporter`.
 */
import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parentPort, Worker } from 'node:worker_threads';
import type { JobContext } from './jobs';

export type WorkerThreadMessage<TResult> =
  { kind: 'progress'; done: number; total: number } | { kind: 'result'; result: TResult } | { kind: 'failed'; message: string };

// The server runs TypeScript through tsx, whose loader a worker thread does not inherit: the worker's
// first (CommonJS) lines load it, then import the TypeScript entry.
const bootstrap = `
const { parentPort, workerData } = require('node:worker_threads');
import('tsx/esm/api')
  .then(({ tsImport }) => tsImport(workerData.entry, workerData.entry))
  .catch((error) => parentPort.postMessage({ kind: 'failed', message: String(error && error.message ? error.message : error) }));
`;

/**
 * Runs `entry` (a path from the project folder, not this module's URL, so it is the same whether the caller runs
 * from source or from a bundle) with `input` as its workerData.input. `name` says what runs, in errors a user may
 * read ("The comparison was stopped …"). Without a job context (a start-up warm-up) no progress is reported.
 */
export function runInWorkerThread<TResult>(options: {
  entry: string;
  name: string;
  input: unknown;
  context?: JobContext;
}): Promise<TResult> {
  const workerFile = path.resolve(/*turbopackIgnore: true*/ process.cwd(), options.entry);
  const capitalised = options.name.charAt(0).toUpperCase() + options.name.slice(1);
  if (!fs.existsSync(workerFile)) return Promise.reject(new Error(`${capitalised}'s worker is missing: ${workerFile}`));
  const context = options.context;
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, {
      eval: true,
      workerData: { entry: pathToFileURL(workerFile).href, input: options.input },
    });
    let settled = false;
    let reporting = false;
    const settle = (finish: () => void) => {
      if (settled) return;
      settled = true;
      context?.signal.removeEventListener('abort', stop);
      finish();
    };
    const stop = () => {
      settle(() => reject(new Error(`${capitalised} was stopped because the server is shutting down.`)));
      void worker.terminate();
    };
    context?.signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: WorkerThreadMessage<TResult>) => {
      if (message.kind === 'progress') {
        // One progress write at a time; a report that finds one in flight is skipped (the next comes soon).
        if (reporting || context === undefined) return;
        reporting = true;
        void context
          .reportProgress(message.done, message.total)
          .catch(() => undefined)
          .finally(() => {
            reporting = false;
          });
      } else if (message.kind === 'result') settle(() => resolve(message.result));
      else settle(() => reject(new Error(message.message)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`${capitalised}'s worker stopped early (exit code ${code}).`))));
  });
}

/** In a worker's entry module: progress at most four times a second, then the result. */
export function workerThreadReporter<TResult>(): {
  onProgress: (done: number, total: number) => void;
  finish: (result: TResult) => void;
} {
  const post = (message: WorkerThreadMessage<TResult>) => parentPort?.postMessage(message);
  let lastReport = 0;
  return {
    onProgress: (done, total) => {
      const now = Date.now();
      if (now - lastReport < 250) return;
      lastReport = now;
      post({ kind: 'progress', done, total });
    },
    finish: (result) => post({ kind: 'result', result }),
  };
}
