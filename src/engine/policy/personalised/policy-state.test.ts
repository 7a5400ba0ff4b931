import fc from 'fast-check';
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { describe, expect, it } from 'vitest';
import type { DecisionContext } from '@/engine/policy/contract';
import { armCount } from '@/engine/policy/message-arms';
import { personas, type Persona } from '@/engine/simulation/personas';
import type { DoseObserver } from '@/engine/simulation/records';
import { parameterCount } from './model';
import { observedReward } from './observed-reward';
import { truthBestArms } from './policy-results';
import { createPolicyState, modelFromState, updatePolicyState, type LoggedDecision, type PolicyState } from './policy-state';
import { summarisePosterior } from './summarise-posterior';

function decisionContext(persona: Persona, patientId: string, last7Days: number, doseObserver: DoseObserver = 'app'): DecisionContext {
  return {
    patientId,
    persona,
    features: { ageBand: '55-64', sex: 'male', conditions: ['type-2-diabetes'], productCount: 2, preferredChannel: 'app', doseObserver },
    day: 20_100,
    dayIndex: 11,
    weekday: 6,
    minuteOfDay: 300,
    firstDoseMinute: 450,
    recentHistory: { dosesScheduledLast7Days: 14, dosesConfirmedLast7Days: 9, daysSinceLastReply: 2, estimatedDaysOfSupplyLeft: 3 },
    messageCounts: { last7Days, last28Days: last7Days * 3, total: 40, repliesLast28Days: 1 },
  };
}

const decisionArbitrary = fc
  .record({
    persona: fc.constantFrom(...personas),
    patient: fc.integer({ min: 0, max: 20 }),
    last7Days: fc.integer({ min: 0, max: 7 }),
    action: fc.integer({ min: 0, max: armCount }),
    reward: fc.double({ min: -1, max: 1.01, noNaN: true }),
    weights: fc.array(fc.double({ min: 0.001, max: 1, noNaN: true }), { minLength: armCount + 1, maxLength: armCount + 1 }),
    withProbabilities: fc.boolean(),
  })
  .map(({ persona, patient, last7Days, action, reward, weights, withProbabilities }): LoggedDecision => {
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const probabilities = weights.map((weight) => weight / total);
    return {
      patientId: `p${patient}`,
      persona,
      context: decisionContext(persona, `p${patient}`, last7Days),
      action,
      propensity: probabilities[action]!,
      observedReward: reward,
      armProbabilities: withProbabilities ? probabilities : null,
    };
  });

function isPositiveDefinite(values: Float64Array | number[], size: number): boolean {
  const matrix = new Matrix(size, size);
  for (let row = 0; row < size; row += 1)
    for (let column = 0; column < size; column += 1) matrix.set(row, column, values[row * size + column]!);
  return new CholeskyDecomposition(matrix).isPositiveDefinite();
}

describe('policy state', () => {
  it('keeps every posterior covariance positive definite through any batches of updates (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(decisionArbitrary, { maxLength: 60 }), { minLength: 1, maxLength: 4 }), (batches) => {
        let state = createPolicyState();
        for (const batch of batches) state = updatePolicyState(state, batch);
        const model = modelFromState(state);
        for (const persona of personas) {
          const posterior = model.personas[persona];
          expect(isPositiveDefinite(posterior.covariance, parameterCount)).toBe(true);
          expect(isPositiveDefinite(posterior.precision, parameterCount)).toBe(true);
          expect(posterior.offsetVariance).toBeGreaterThan(0);
        }
        for (const record of model.patients.values())
          for (let index = 1; index <= 5; index += 1) expect(record[index]).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 60 },
    );
  });

  it('is pure, versioned and survives JSON', () => {
    const prior = createPolicyState();
    const before = JSON.stringify(prior);
    const decisions = fc.sample(decisionArbitrary, { numRuns: 200, seed: 3 });
    const next = updatePolicyState(prior, decisions);
    expect(JSON.stringify(prior)).toBe(before);
    expect(next.version).toBe(prior.version + 1);
    expect(next.decisionsUsed).toBe(200);
    const roundTripped = JSON.parse(JSON.stringify(next)) as PolicyState;
    expect(updatePolicyState(roundTripped, decisions)).toEqual(updatePolicyState(next, decisions));
  });

  it('does not learn from patients whose doses are confirmed only by replying', () => {
    const decisions = fc.sample(decisionArbitrary, { numRuns: 50, seed: 9 }).map((decision) => ({
      ...decision,
      context: decisionContext(decision.persona, decision.patientId, 1, 'whatsapp'),
    }));
    const next = updatePolicyState(createPolicyState(), decisions);
    expect(next.decisionsUsed).toBe(0);
    expect(next.decisionsSkipped).toBe(50);
    expect(next.personas).toEqual(createPolicyState().personas);
    expect(next.patients).toEqual({});
  });

  it('rejects invalid settings and unknown formats', () => {
    expect(() => updatePolicyState(createPolicyState(), [], { sendProbabilityFloor: 0.9, sendProbabilityCeiling: 0.5 })).toThrow(
      /sendProbabilityFloor/,
    );
    expect(() => createPolicyState({ settings: { messagesPerWeekCap: -1 } })).toThrow(/messagesPerWeekCap/);
    expect(() => modelFromState({ ...createPolicyState(), format: 99 })).toThrow(/format/);
  });

  it('summarises every persona × arm with a credible interval around the mean', () => {
    const state = updatePolicyState(createPolicyState(), fc.sample(decisionArbitrary, { numRuns: 500, seed: 4 }));
    const summary = summarisePosterior(state);
    expect(summary).toHaveLength(personas.length * armCount);
    for (const row of summary) {
      expect(row.lower).toBeLessThan(row.mean);
      expect(row.upper).toBeGreaterThan(row.mean);
      expect(row.arm).toBeGreaterThanOrEqual(1);
      expect(row.arm).toBeLessThanOrEqual(armCount);
    }
    const observations = summary.reduce((sum, row) => sum + row.observations, 0);
    const noMessage = personas.reduce((sum, persona) => sum + state.personas[persona].observations[0]!, 0);
    expect(observations + noMessage).toBe(500);
  });
});

describe('observed reward', () => {
  const base = { dosesScheduled: 4, dosesConfirmed: 3, replied: false, optedOut: false } as const;
  it('is the confirmed share where confirmations do not depend on messages', () => {
    expect(observedReward({ ...base, doseObserver: 'app' })).toBe(0.75);
    expect(observedReward({ ...base, doseObserver: 'smart-bottle', replied: true })).toBeCloseTo(0.76, 12);
    expect(observedReward({ ...base, doseObserver: 'app', dosesScheduled: 0, dosesConfirmed: 0 })).toBe(0);
  });
  it('leaves reply-only confirmations out and penalises opting out', () => {
    expect(observedReward({ ...base, doseObserver: 'whatsapp' })).toBe(0);
    expect(observedReward({ ...base, doseObserver: 'app', optedOut: true })).toBe(-0.25);
  });
});

describe('truth best arms', () => {
  it('names the best-fitting arm(s) of every persona', () => {
    const best = truthBestArms();
    for (const persona of personas) expect(best[persona].length).toBeGreaterThan(0);
    // medication-sceptic: education × gain (1.2 × 1.3) fits best (personas.ts).
    expect(best['medication-sceptic']).toEqual([2 * 4 + 1 + 1]);
  });
});
