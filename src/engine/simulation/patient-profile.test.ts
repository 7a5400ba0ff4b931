import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findDemoProduct } from './demo-catalogue';
import { drawPatientProfile, simulatedPatientId } from './patient-profile';
import { personaParameters, personas } from './personas';
import { createRandomStream } from './random';

function profileOf(seed: number, patientIndex: number, days = 365) {
  return drawPatientProfile(createRandomStream(seed, patientIndex, 'profile'), { seed, patientIndex, days });
}

describe('drawPatientProfile', () => {
  it('draws a coherent patient for any seed and position', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat({ max: 100_000 }), (seed, patientIndex) => {
        const { patient, traits, products } = profileOf(seed, patientIndex);
        expect(patient.id).toBe(simulatedPatientId(seed, patientIndex));
        expect(patient.consent[patient.preferredChannel]).toBe(true);
        expect(patient.conditions.length).toBeGreaterThan(0);
        // One product per condition, prescribed for that condition.
        expect(products.map((product) => product.condition)).toEqual(patient.conditions);
        expect(patient.productIds).toEqual(products.map((product) => product.id));
        for (const productId of patient.productIds) expect(findDemoProduct(productId)).toBeDefined();
        expect(patient.routine.morning).toHaveLength(7);
        expect(patient.routine.evening).toHaveLength(7);
        for (const minute of [...patient.routine.morning, ...patient.routine.evening]) {
          expect(minute).toBeGreaterThanOrEqual(0);
          expect(minute).toBeLessThan(1440);
        }
        for (const probability of [
          traits.forgetProbability,
          traits.skipProbability,
          traits.dailyStopProbability,
          traits.dailyRefillProbability,
          traits.replyProbability,
        ]) {
          expect(probability).toBeGreaterThanOrEqual(0);
          expect(probability).toBeLessThanOrEqual(1);
        }
        expect([30, 90]).toContain(traits.daysSupply);
        expect(traits.isNewUser).toBe(patient.persona === 'newly-diagnosed');
        if (traits.isNewUser) expect(traits.priorFillDaysAgo).toEqual([]);
        else {
          expect(traits.priorFillDaysAgo).toHaveLength(products.length);
          for (const daysAgo of traits.priorFillDaysAgo) expect(daysAgo).toBeLessThan(traits.daysSupply);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('mixes personas in the configured shares', () => {
    const counts = new Map<string, number>();
    const total = 12_000;
    for (let index = 0; index < total; index += 1) {
      const persona = profileOf(11, index).patient.persona;
      counts.set(persona, (counts.get(persona) ?? 0) + 1);
    }
    for (const persona of personas)
      expect(Math.abs((counts.get(persona) ?? 0) / total - personaParameters[persona].share)).toBeLessThan(0.02);
  });

  it('makes personas differ in the way they are described', () => {
    const byPersona = new Map<string, { forget: number; concerns: number; cost: number; count: number }>();
    for (let index = 0; index < 6000; index += 1) {
      const { patient, traits } = profileOf(5, index);
      const entry = byPersona.get(patient.persona) ?? { forget: 0, concerns: 0, cost: 0, count: 0 };
      entry.forget += traits.forgetProbability;
      entry.concerns += traits.concerns;
      entry.cost += traits.costBarrier;
      entry.count += 1;
      byPersona.set(patient.persona, entry);
    }
    const mean = (persona: string, key: 'forget' | 'concerns' | 'cost') =>
      (byPersona.get(persona)?.[key] ?? 0) / (byPersona.get(persona)?.count ?? 1);
    expect(mean('forgetful-older-adult', 'forget')).toBeGreaterThan(2 * mean('engaged-self-manager', 'forget'));
    expect(mean('medication-sceptic', 'concerns')).toBeGreaterThan(2 * mean('busy-professional', 'concerns'));
    expect(mean('cost-constrained', 'cost')).toBeGreaterThan(3 * mean('engaged-self-manager', 'cost'));
  });

  it('never stops of its own accord where the persona gives no reason to (only life events stop them)', () => {
    for (let index = 0; index < 3000; index += 1) {
      const { patient, traits } = profileOf(7, index);
      if (personaParameters[patient.persona].monthlyStopProbability === 0) expect(traits.dailyStopProbability).toBe(0);
      else expect(traits.dailyStopProbability).toBeGreaterThan(0);
    }
    expect(personaParameters['engaged-self-manager'].monthlyStopProbability).toBe(0);
    expect(personaParameters['forgetful-older-adult'].monthlyStopProbability).toBe(0);
  });

  it('is the same patient whatever the length of the run, apart from its life events', () => {
    const short = profileOf(9, 17, 30);
    const long = profileOf(9, 17, 730);
    expect(short.patient).toEqual(long.patient);
    expect({ ...short.traits, lifeEvents: [] }).toEqual({ ...long.traits, lifeEvents: [] });
    expect(long.traits.lifeEvents.length).toBeGreaterThanOrEqual(short.traits.lifeEvents.length);
  });
});
