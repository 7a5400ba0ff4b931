/**
 * The comparison page's first view is the default cohort's simulation (seconds of CPU). Simulated once when the
 * server starts, in a worker thread, so neither the first reader after a start nor anyone else waits for it
 * (issue 19 item 6).
 */
import 'server-only';
import { comparisonDefaults } from '../schemas';
import { simulateInWorker } from './simulate-in-worker';
import { cachedSimulations, rememberSimulations } from './simulation-cache';

/** Returns how long it took, in milliseconds (0 when the simulation was already cached). */
export async function warmDefaultComparison(): Promise<number> {
  const cohort = { patients: comparisonDefaults.patients, seed: comparisonDefaults.seed };
  if (cachedSimulations(cohort) !== undefined) return 0;
  const started = performance.now();
  const simulations = await simulateInWorker(cohort);
  // A reader may have simulated it meanwhile; either result is the same (the simulation is deterministic).
  rememberSimulations(cohort, simulations);
  return performance.now() - started;
}
