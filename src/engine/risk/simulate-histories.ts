/** A simulated cohort's histories for training and evaluation (labelled simulated wherever shown). */
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { createFixedWeeklyPolicy } from '@/engine/simulation/policies/fixed-weekly-policy';
import type { MessagingPolicy } from '@/engine/policy/contract';
import { createHistoryCollector, simulationSinkFor, type PatientHistory } from './history';

/** 2026-01-05, a Monday: the simulated cohorts' first day, so week boundaries fall on Mondays. */
export const simulatedStartDay = 20_458;

export function simulateHistories(options: {
  patients: number;
  weeks: number;
  seed: number;
  /** The policy the cohort lived under; a weekly check-in by default, so reply and message features vary. */
  policy?: MessagingPolicy;
  onProgress?: (done: number, total: number) => void;
}): PatientHistory[] {
  const days = options.weeks * 7;
  const collector = createHistoryCollector(simulatedStartDay, days);
  simulateCohort({
    patientCount: options.patients,
    days,
    seed: options.seed,
    startDay: simulatedStartDay,
    policy: options.policy ?? createFixedWeeklyPolicy(),
    sink: simulationSinkFor(collector),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  return collector.histories();
}
