/**
 * The simulated comparison's effect on adherence, for the national impact model (issue 15 item 4): the share
 * of the default cohort adherent (PDC ≥ 0.8 over the 12 months) under the personalised policy minus under no
 * messages, the same synthetic patients and random draws in both runs. A simulation, not a measurement, and a
 * single run: there is no confidence interval to give. Read only from the cache the server warms at start-up
 * (warm-default-comparison.ts) or the comparison page fills, so a reader never waits seconds for it; null until
 * then.
 */
import 'server-only';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import { comparisonDefaults } from '../schemas';
import { policyLabels } from './price-comparison';
import { cachedSimulations } from './simulation-cache';
import { comparisonStartDay, type PolicySimulation } from './simulate-policies';

/** The platform's product policy, and the control it is compared with. */
const effectPolicy = 'personalised';
const controlPolicy = 'none';

export type SimulatedAdherenceEffect = {
  policyLabel: string;
  controlLabel: string;
  /** Share adherent under each, 0–1. */
  policyShare: number;
  controlShare: number;
  /** Percentage points, policy − control. */
  points: number;
  patients: number;
  seed: number;
  /** The simulated year, ISO dates, both ends included. */
  period: { from: string; to: string };
};

/** The effect from a comparison's simulations; null when either run is missing. */
export function simulatedAdherenceEffectOf(options: {
  simulations: readonly PolicySimulation[];
  seed: number;
  startDay: number;
}): SimulatedAdherenceEffect | null {
  const policy = options.simulations.find((simulation) => simulation.policy === effectPolicy);
  const control = options.simulations.find((simulation) => simulation.policy === controlPolicy);
  if (policy === undefined || control === undefined) return null;
  return {
    policyLabel: policyLabels[effectPolicy]!,
    controlLabel: policyLabels[controlPolicy]!,
    policyShare: policy.shareAdherent,
    controlShare: control.shareAdherent,
    points: (policy.shareAdherent - control.shareAdherent) * 100,
    patients: policy.patients,
    seed: options.seed,
    period: { from: isoFromDayNumber(options.startDay), to: isoFromDayNumber(options.startDay + policy.days - 1) },
  };
}

/** The default cohort's effect if it has been simulated in this server; null otherwise. */
export function getSimulatedAdherenceEffect(): SimulatedAdherenceEffect | null {
  const cohort = { patients: comparisonDefaults.patients, seed: comparisonDefaults.seed };
  const simulations = cachedSimulations(cohort);
  return simulations === undefined ? null : simulatedAdherenceEffectOf({ simulations, seed: cohort.seed, startDay: comparisonStartDay });
}
