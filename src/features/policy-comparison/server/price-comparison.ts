/**
 * Turns the policies' simulated runs into the comparison the page shows, pricing the messages.
 *
 * - Message cost: every outbound SMS and WhatsApp message at its price (providers bill a sent message even
 *   when it fails to arrive); in-app messages cost nothing.
 * - Adherent patient-days: the days each patient had their medicine at hand, the days PDC counts as
 *   covered (PDC × days of the year), summed over the cohort.
 * - Cost per adherent patient-day: message cost ÷ adherent patient-days.
 * - Cost per extra adherent day: what a policy costs beyond sending nothing, per adherent day it adds
 *   beyond sending nothing (null when it adds none).
 */
import 'server-only';
import { isoFromDayNumber } from '@/engine/adherence/day-number';
import type { ComparedPolicy, ComparisonSettings, PolicyComparison } from '../schemas';
import type { PolicySimulation } from './simulate-policies';

export const policyLabels: Record<string, string> = {
  none: 'No messages',
  'fixed-daily': 'Standard daily reminder (08:00)',
  'fixed-weekly': 'Weekly check-in (Mondays 10:00)',
  personalised: 'Personalised (learning policy)',
};

export function messageCost(
  simulation: Pick<PolicySimulation, 'messagesByChannel'>,
  prices: Pick<ComparisonSettings, 'smsPrice' | 'whatsappPrice'>,
): number {
  return simulation.messagesByChannel.sms * prices.smsPrice + simulation.messagesByChannel.whatsapp * prices.whatsappPrice;
}

export function adherentPatientDays(simulation: Pick<PolicySimulation, 'meanPdc' | 'patients' | 'days'>): number {
  return simulation.meanPdc * simulation.patients * simulation.days;
}

export function priceComparison(options: {
  simulations: readonly PolicySimulation[];
  settings: ComparisonSettings;
  startDay: number;
}): PolicyComparison {
  const { simulations, settings } = options;
  const baseline = simulations.find((simulation) => simulation.policy === 'none');
  const baselineCost = baseline === undefined ? 0 : messageCost(baseline, settings);
  const baselineDays = baseline === undefined ? 0 : adherentPatientDays(baseline);
  const policies: ComparedPolicy[] = simulations.map((simulation) => {
    const cost = messageCost(simulation, settings);
    const days = adherentPatientDays(simulation);
    const extraDays = days - baselineDays;
    return {
      policy: simulation.policy,
      label: policyLabels[simulation.policy] ?? simulation.policy,
      meanPdc: simulation.meanPdc,
      shareAdherent: simulation.shareAdherent,
      persistence: simulation.persistence,
      messagesPerPatient: simulation.messagesPerPatient,
      optOuts: simulation.optOuts,
      optOutRate: simulation.optOutRate,
      messagesByChannel: { ...simulation.messagesByChannel },
      messageCost: cost,
      adherentPatientDays: days,
      costPerAdherentPatientDay: days > 0 ? cost / days : 0,
      costPerExtraAdherentDay:
        simulation.policy === 'none' || baseline === undefined || extraDays <= 0 ? null : (cost - baselineCost) / extraDays,
      meanPdcByMonth: [...simulation.meanPdcByMonth],
    };
  });
  const first = simulations[0];
  return {
    settings,
    patients: first?.patients ?? settings.patients,
    days: first?.days ?? 0,
    startDate: isoFromDayNumber(options.startDay),
    policies,
  };
}
