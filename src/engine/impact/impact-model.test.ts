import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AdherenceImprovement,
  conditionImpact,
  type ConditionInputs,
  eventsAvoidedPerThousand,
  patientsMoved,
  rateAmongPoorlyAdherent,
  totalImpact,
} from './impact-model';

const inputs: ConditionInputs = {
  population: 1_000_000,
  prevalence: 0.3,
  shareTreated: 0.5,
  baselineAdherence: 0.5,
  hospitalisationRate: 0.1,
  mortalityRate: 0.02,
  costPerAdmission: 2000,
  hospitalisationRelativeRisk: { estimate: 0.8, ciLow: 0.7, ciHigh: 0.9 },
  mortalityRelativeRisk: { estimate: 0.71, ciLow: 0.64, ciHigh: 0.78 },
};
const tenPoints: AdherenceImprovement = { kind: 'percentage-points', points: 10 };

describe('conditionImpact (hand-computed vectors)', () => {
  it('follows the stated formula', () => {
    const impact = conditionImpact(inputs, tenPoints);
    // Treated T = 1,000,000 × 0.3 × 0.5 = 150,000; poorly adherent = 150,000 × (1 − 0.5) = 75,000.
    expect(impact.treated).toBeCloseTo(150_000, 6);
    expect(impact.nonAdherent).toBeCloseTo(75_000, 6);
    // Moved m = 150,000 × 10/100 = 15,000 (below the cap of 75,000).
    expect(impact.moved).toBeCloseTo(15_000, 6);
    // Central RR 0.8: r_poor = 0.1 / (0.5 × 0.8 + 0.5) = 0.1 / 0.9 = 0.111…; E = 15,000 × 0.111… × 0.2 = 333.33…
    expect(impact.avoided.central.hospitalisations).toBeCloseTo(333.3333, 3);
    // Low (RR 0.9): r_poor = 0.1 / 0.95 = 0.105263…; E = 15,000 × 0.105263 × 0.1 = 157.8947…
    expect(impact.avoided.low.hospitalisations).toBeCloseTo(157.8947, 3);
    // High (RR 0.7): r_poor = 0.1 / 0.85 = 0.117647…; E = 15,000 × 0.117647 × 0.3 = 529.4118…
    expect(impact.avoided.high.hospitalisations).toBeCloseTo(529.4118, 3);
    // Deaths, central RR 0.71: r_poor = 0.02 / (0.355 + 0.5) = 0.0233918; E = 15,000 × 0.0233918 × 0.29 = 101.7544
    expect(impact.avoided.central.deaths).toBeCloseTo(101.7544, 3);
    // Deaths, high RR 0.64: r_poor = 0.02 / (0.32 + 0.5) = 0.0243902; E = 15,000 × 0.0243902 × 0.36 = 131.7073
    expect(impact.avoided.high.deaths).toBeCloseTo(131.7073, 3);
    // Costs = hospitalisations × 2,000 = 333.333 × 2,000 = 666,666.67
    expect(impact.avoided.central.costs).toBeCloseTo(666_666.667, 2);
  });

  it('caps the patients moved at the poorly adherent', () => {
    // 60 points of 150,000 = 90,000 > 75,000 poorly adherent: 75,000 are moved.
    expect(conditionImpact(inputs, { kind: 'percentage-points', points: 60 }).moved).toBeCloseTo(75_000, 6);
  });

  it('reads a share of the poorly adherent', () => {
    // 20% of 75,000 = 15,000: the same as 10 points of 150,000.
    const byShare = conditionImpact(inputs, { kind: 'share-of-non-adherent', share: 0.2 });
    expect(byShare.moved).toBeCloseTo(15_000, 6);
    expect(byShare.avoided.central.hospitalisations).toBeCloseTo(333.3333, 3);
  });

  it('recovers the overall rate from the split rates', () => {
    // r_poor = 0.111…, r_good = 0.8 × 0.111… = 0.0888…; 0.5 × 0.0888… + 0.5 × 0.111… = 0.1
    const poor = rateAmongPoorlyAdherent({ rate: 0.1, adherentShare: 0.5, relativeRisk: 0.8 });
    expect(0.5 * 0.8 * poor + 0.5 * poor).toBeCloseTo(0.1, 12);
  });

  it('adds conditions scenario by scenario', () => {
    const one = conditionImpact(inputs, tenPoints);
    const total = totalImpact([one, one]);
    expect(total.central.hospitalisations).toBeCloseTo(666.6667, 3);
    // 2 × 157.8947… × 2,000 = 2 × 15,000 × (0.1 / 0.95) × 0.1 × 2,000 = 631,578.947…
    expect(total.low.costs).toBeCloseTo(631_578.947, 2);
  });

  it('gives events avoided per 1,000 patients from an observed adherent share', () => {
    // 1,000 × (0.7 − 0.5) × 0.111… × (1 − 0.8) = 1,000 × 0.2 × 0.111… × 0.2 = 4.444…
    expect(eventsAvoidedPerThousand({ observedAdherentShare: 0.7, referenceAdherentShare: 0.5, rate: 0.1, relativeRisk: 0.8 })).toBeCloseTo(
      4.4444,
      3,
    );
    // Below the reference: negative (more events expected): 1,000 × (−0.1) × 0.111… × 0.2 = −2.222…
    expect(eventsAvoidedPerThousand({ observedAdherentShare: 0.4, referenceAdherentShare: 0.5, rate: 0.1, relativeRisk: 0.8 })).toBeCloseTo(
      -2.2222,
      3,
    );
  });

  it('names the field at fault', () => {
    expect(() => conditionImpact({ ...inputs, prevalence: 1.2 }, tenPoints)).toThrow(/prevalence/);
    expect(() => conditionImpact({ ...inputs, mortalityRelativeRisk: { estimate: 0.9, ciLow: 0.64, ciHigh: 0.78 } }, tenPoints)).toThrow(
      /mortality relative risk/,
    );
    expect(() => patientsMoved(100, 0.5, { kind: 'percentage-points', points: -1 })).toThrow(/percentage points/);
  });
});

const share = fc.double({ min: 0, max: 1, noNaN: true });
const relativeRisk = fc
  .tuple(
    fc.double({ min: 0.3, max: 1, noNaN: true }),
    fc.double({ min: 0.3, max: 1, noNaN: true }),
    fc.double({ min: 0.3, max: 1, noNaN: true }),
  )
  .map((values) => {
    const [ciLow, estimate, ciHigh] = [...values].sort((left, right) => left - right) as [number, number, number];
    return { ciLow, estimate, ciHigh };
  });
const arbitraryInputs = fc.record({
  population: fc.double({ min: 0, max: 1e9, noNaN: true }),
  prevalence: share,
  shareTreated: share,
  baselineAdherence: share,
  hospitalisationRate: fc.double({ min: 0, max: 2, noNaN: true }),
  mortalityRate: fc.double({ min: 0, max: 0.5, noNaN: true }),
  costPerAdmission: fc.double({ min: 0, max: 1e5, noNaN: true }),
  hospitalisationRelativeRisk: relativeRisk,
  mortalityRelativeRisk: relativeRisk,
});
const tolerance = (value: number) => 1e-9 * Math.max(1, Math.abs(value));

describe('conditionImpact (properties)', () => {
  it('avoids nothing without an improvement', () => {
    fc.assert(
      fc.property(arbitraryInputs, (model) => {
        const impact = conditionImpact(model, { kind: 'percentage-points', points: 0 });
        for (const scenario of ['low', 'central', 'high'] as const) {
          expect(impact.avoided[scenario]).toEqual({ hospitalisations: 0, deaths: 0, costs: 0 });
        }
      }),
    );
  });

  it('never avoids less for a larger improvement', () => {
    fc.assert(
      fc.property(
        arbitraryInputs,
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (model, a, b) => {
          const [smaller, larger] = a <= b ? [a, b] : [b, a];
          const less = conditionImpact(model, { kind: 'percentage-points', points: smaller }).avoided.central;
          const more = conditionImpact(model, { kind: 'percentage-points', points: larger }).avoided.central;
          expect(more.hospitalisations).toBeGreaterThanOrEqual(less.hospitalisations - tolerance(less.hospitalisations));
          expect(more.deaths).toBeGreaterThanOrEqual(less.deaths - tolerance(less.deaths));
          expect(more.costs).toBeGreaterThanOrEqual(less.costs - tolerance(less.costs));
        },
      ),
    );
  });

  it('orders the scenarios low ≤ central ≤ high', () => {
    fc.assert(
      fc.property(arbitraryInputs, fc.double({ min: 0, max: 100, noNaN: true }), (model, points) => {
        const { low, central, high } = conditionImpact(model, { kind: 'percentage-points', points }).avoided;
        for (const key of ['hospitalisations', 'deaths', 'costs'] as const) {
          expect(low[key]).toBeLessThanOrEqual(central[key] + tolerance(central[key]));
          expect(central[key]).toBeLessThanOrEqual(high[key] + tolerance(high[key]));
        }
      }),
    );
  });
});
