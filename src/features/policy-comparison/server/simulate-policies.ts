/**
 * Runs the simulator once per compared policy on the same cohort (same size and seed, hence the same
 * patients with the same traits and the same random draws for everything a message does not touch), so
 * the differences between policies are the policies' doing. Pure computation: no database, no I/O.
 */
import 'server-only';
import { dayNumberFromCivil } from '@/engine/adherence/day-number';
import type { MessageChannel } from '@/engine/policy/message-arms';
import { createPolicy, type PolicyName } from '@/engine/simulation/policies/policy-registry';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';

/**
 * The arms the page compares, in its order; the personalised policy starts each run from its prior and
 * learns day by day (about three times the time of a fixed policy). Named here rather than taken from the registry: the registry also
 * holds policies that are not product options (a uniform-random logging policy for off-policy evaluation),
 * which must not join the page unasked.
 */
export const comparedPolicies = ['none', 'fixed-daily', 'fixed-weekly', 'personalised'] as const satisfies readonly PolicyName[];
export type ComparedPolicyName = (typeof comparedPolicies)[number];

/** Twelve months; the simulator's calendar has exactly 12 months in 365 days. */
export const comparisonDays = 365;
export const comparisonStartDay = dayNumberFromCivil(2025, 1, 1);

/** What one policy's run yields: small, serialisable (it crosses from a worker thread), price-independent. */
export type PolicySimulation = {
  policy: ComparedPolicyName;
  policyVersion: string;
  patients: number;
  days: number;
  meanPdc: number;
  shareAdherent: number;
  persistence: number;
  messagesPerPatient: number;
  optOuts: number;
  optOutRate: number;
  messagesByChannel: Record<MessageChannel, number>;
  meanPdcByMonth: number[];
};

export type SimulationProgress = (patientDaysDone: number, totalPatientDays: number) => void;

export function simulatePolicies(options: { patients: number; seed: number; onProgress?: SimulationProgress }): PolicySimulation[] {
  const runDays = options.patients * comparisonDays;
  const totalPatientDays = runDays * comparedPolicies.length;
  return comparedPolicies.map((name, index) => {
    const messagesByChannel: Record<MessageChannel, number> = { sms: 0, whatsapp: 0, app: 0 };
    let optOuts = 0;
    const summary = simulateCohort({
      patientCount: options.patients,
      days: comparisonDays,
      seed: options.seed,
      startDay: comparisonStartDay,
      policy: createPolicy(name),
      sink: {
        message: (message) => {
          if (message.direction === 'outbound') messagesByChannel[message.channel] += 1;
          else if (message.replyIntent === 'stop') optOuts += 1;
        },
      },
      onProgress: options.onProgress === undefined ? undefined : (done) => options.onProgress?.(index * runDays + done, totalPatientDays),
    });
    return {
      policy: name,
      policyVersion: summary.policyVersion,
      patients: summary.patients,
      days: summary.days,
      meanPdc: summary.meanPdc,
      shareAdherent: summary.shareAdherent,
      persistence: summary.persistence,
      messagesPerPatient: summary.messagesPerPatient,
      optOuts,
      optOutRate: summary.optOutRate,
      messagesByChannel,
      meanPdcByMonth: summary.meanPdcByMonth,
    };
  });
}
