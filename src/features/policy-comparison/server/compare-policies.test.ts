import { describe, expect, it } from 'vitest';
import { createPolicy } from '@/engine/simulation/policies/policy-registry';
import { simulateCohort } from '@/engine/simulation/simulate-cohort';
import { comparePolicies } from './compare-policies';
import { adherentPatientDays, messageCost, priceComparison } from './price-comparison';
import { comparedPolicies, comparisonDays, comparisonStartDay, type PolicySimulation, simulatePolicies } from './simulate-policies';

const prices = { smsPrice: 0.04, whatsappPrice: 0.02 };

describe('comparePolicies', () => {
  it('runs the compared policies, and only those, on the same cohort and reports the simulator’s own figures', { timeout: 60_000 }, () => {
    const comparison = comparePolicies({ settings: { patients: 300, seed: 11, ...prices } });
    expect(comparison.policies.map((policy) => policy.policy)).toEqual(['none', 'fixed-daily', 'fixed-weekly', 'personalised']);
    expect(comparison).toMatchObject({ patients: 300, days: 365, startDate: '2025-01-01' });
    for (const compared of comparison.policies) {
      const summary = simulateCohort({
        patientCount: 300,
        days: comparisonDays,
        seed: 11,
        startDay: comparisonStartDay,
        policy: createPolicy(compared.policy as (typeof comparedPolicies)[number]),
      });
      expect(compared).toMatchObject({
        meanPdc: summary.meanPdc,
        shareAdherent: summary.shareAdherent,
        persistence: summary.persistence,
        messagesPerPatient: summary.messagesPerPatient,
        optOutRate: summary.optOutRate,
        meanPdcByMonth: summary.meanPdcByMonth,
      });
      const { sms, whatsapp, app } = compared.messagesByChannel;
      expect((sms + whatsapp + app) / 300).toBeCloseTo(summary.messagesPerPatient, 10);
      expect(compared.optOuts / 300).toBeCloseTo(summary.optOutRate, 10);
      expect(compared.meanPdcByMonth).toHaveLength(12);
    }
    const [none, daily, weekly, personalised] = comparison.policies;
    expect(none).toMatchObject({
      messagesPerPatient: 0,
      optOuts: 0,
      messageCost: 0,
      costPerAdherentPatientDay: 0,
      costPerExtraAdherentDay: null,
    });
    // Daily reminders help (Thakkar 2016, calibrated in the simulator) and cost the most.
    expect(daily!.meanPdc).toBeGreaterThan(none!.meanPdc);
    expect(daily!.messageCost).toBeGreaterThan(weekly!.messageCost);
    // The learning policy sends (within its send-probability bounds) and is labelled as what it is.
    expect(personalised).toMatchObject({ label: 'Personalised (learning policy)' });
    expect(personalised!.messagesPerPatient).toBeGreaterThan(0);
  });

  it('gives the same numbers for the same seed and other numbers for another seed', { timeout: 60_000 }, () => {
    const first = simulatePolicies({ patients: 150, seed: 4 });
    expect(simulatePolicies({ patients: 150, seed: 4 })).toEqual(first);
    const other = simulatePolicies({ patients: 150, seed: 5 });
    expect(other.map((policy) => policy.meanPdc)).not.toEqual(first.map((policy) => policy.meanPdc));
    // And the cached path answers exactly what a fresh run computes.
    expect(comparePolicies({ settings: { patients: 150, seed: 4, ...prices } })).toEqual(
      priceComparison({ simulations: first, settings: { patients: 150, seed: 4, ...prices }, startDay: comparisonStartDay }),
    );
  });

  it('reports progress in patient-days across the four runs', { timeout: 60_000 }, () => {
    const reports: [number, number][] = [];
    simulatePolicies({ patients: 100, seed: 8, onProgress: (done, total) => reports.push([done, total]) });
    expect(reports.every(([, total]) => total === 4 * 100 * 365)).toBe(true);
    expect(reports.at(-1)).toEqual([4 * 100 * 365, 4 * 100 * 365]);
    expect(reports.map(([done]) => done)).toEqual([...reports.map(([done]) => done)].sort((left, right) => left - right));
  });
});

describe('message cost', () => {
  const simulation = (policy: string, meanPdc: number, messagesByChannel: PolicySimulation['messagesByChannel']): PolicySimulation => ({
    policy: policy as PolicySimulation['policy'],
    policyVersion: '1',
    patients: 100,
    days: 365,
    meanPdc,
    shareAdherent: 0.5,
    persistence: 0.8,
    messagesPerPatient: (messagesByChannel.sms + messagesByChannel.whatsapp + messagesByChannel.app) / 100,
    optOuts: 0,
    optOutRate: 0,
    messagesByChannel,
    meanPdcByMonth: [],
  });

  it('prices outbound SMS and WhatsApp messages; in-app messages are free', () => {
    expect(
      messageCost({ messagesByChannel: { sms: 1000, whatsapp: 500, app: 9999 } }, { smsPrice: 0.05, whatsappPrice: 0.01 }),
    ).toBeCloseTo(55, 10);
    expect(adherentPatientDays({ meanPdc: 0.6, patients: 100, days: 365 })).toBeCloseTo(21_900, 10);
  });

  it('divides cost by adherent patient-days, and the extra cost by the extra days gained over no messages', () => {
    const comparison = priceComparison({
      simulations: [
        simulation('none', 0.5, { sms: 0, whatsapp: 0, app: 0 }),
        simulation('fixed-daily', 0.6, { sms: 20_000, whatsapp: 10_000, app: 6_500 }),
        simulation('fixed-weekly', 0.5, { sms: 3_000, whatsapp: 0, app: 0 }),
      ],
      settings: { patients: 100, seed: 1, smsPrice: 0.04, whatsappPrice: 0.02 },
      startDay: comparisonStartDay,
    });
    const [none, daily, weekly] = comparison.policies;
    // 20,000 × 0.04 + 10,000 × 0.02 = 1,000; adherent days 0.6 × 100 × 365 = 21,900; extra 0.1 × 36,500 = 3,650.
    expect(daily).toMatchObject({ messageCost: 1000, adherentPatientDays: 21_900 });
    expect(daily!.costPerAdherentPatientDay).toBeCloseTo(1000 / 21_900, 12);
    expect(daily!.costPerExtraAdherentDay).toBeCloseTo(1000 / 3650, 12);
    expect(none).toMatchObject({ messageCost: 0, costPerAdherentPatientDay: 0, costPerExtraAdherentDay: null });
    // Spending without gaining adherent days has no cost per extra day.
    expect(weekly).toMatchObject({ messageCost: 120, costPerExtraAdherentDay: null });
    expect(comparison.policies.map((policy) => policy.label)).toEqual([
      'No messages',
      'Standard daily reminder (08:00)',
      'Weekly check-in (Mondays 10:00)',
    ]);
  });
});
