/**
 * The comparison itself, run in this process: the simulator on one cohort under each available policy,
 * priced with the given message prices. Used for the page's first view and for runs small enough to answer
 * within the request (larger ones go through `start-policy-comparison` to a background job).
 */
import 'server-only';
import { comparisonLimits, type ComparisonSettings, type PolicyComparison } from '../schemas';
import { priceComparison } from './price-comparison';
import { cachedSimulations, rememberSimulations } from './simulation-cache';
import { comparisonStartDay, simulatePolicies, type SimulationProgress } from './simulate-policies';

export function comparePolicies(options: { settings: ComparisonSettings; onProgress?: SimulationProgress }): PolicyComparison {
  const { settings } = options;
  if (settings.patients > comparisonLimits.maximumPatients)
    throw new RangeError(`at most ${comparisonLimits.maximumPatients} patients, got ${settings.patients}`);
  const cohort = { patients: settings.patients, seed: settings.seed };
  let simulations = cachedSimulations(cohort);
  if (simulations === undefined) {
    simulations = simulatePolicies({ ...cohort, onProgress: options.onProgress });
    rememberSimulations(cohort, simulations);
  }
  return priceComparison({ simulations, settings, startDay: comparisonStartDay });
}
