/**
 * Background-job handler for large comparisons (kind `policy-comparison`, payload: the comparison
 * settings). Importing this module registers it; the server loads it at start-up (src/cli/server/
 * register-job-handlers.ts). The simulation runs in a worker thread with progress in patient-days; a job
 * that dies part-way simply runs again (the simulation is deterministic), so no checkpoint is kept.
 */
import 'server-only';
import { parseInput } from '@/lib/parse-input';
import { type JobHandler, registerJobHandler } from '@/lib/server/jobs';
import { comparisonSettingsSchema } from '../schemas';
import { priceComparison } from './price-comparison';
import { cachedSimulations, rememberSimulations } from './simulation-cache';
import { comparisonStartDay } from './simulate-policies';
import { simulateInWorker } from './simulate-in-worker';
import { comparisonJobKind } from './start-policy-comparison';

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
