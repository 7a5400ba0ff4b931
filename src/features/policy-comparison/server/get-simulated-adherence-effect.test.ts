import { describe, expect, it } from 'vitest';
import { comparisonDefaults } from '../schemas';
import { getSimulatedAdherenceEffect, simulatedAdherenceEffectOf } from './get-simulated-adherence-effect';
import { rememberSimulations } from './simulation-cache';
import { comparisonStartDay, type PolicySimulation } from './simulate-policies';

const run = (policy: PolicySimulation['policy'], shareAdherent: number): PolicySimulation => ({
  policy,
  policyVersion: '1',
  patients: 1000,
  days: 365,
  meanPdc: shareAdherent,
  shareAdherent,
  persistence: 0.8,
  messagesPerPatient: 0,
  optOuts: 0,
  optOutRate: 0,
  messagesByChannel: { sms: 0, whatsapp: 0, app: 0 },
  meanPdcByMonth: [],
});

const simulations = [run('none', 0.5), run('fixed-daily', 0.56), run('fixed-weekly', 0.53), run('personalised', 0.615)];

describe('simulatedAdherenceEffectOf', () => {
  it('is the personalised policy’s share adherent minus no messages’, in points, over the simulated year', () => {
    const effect = simulatedAdherenceEffectOf({ simulations, seed: 7, startDay: comparisonStartDay });
    expect(effect).toEqual({
      policyLabel: 'Personalised (learning policy)',
      controlLabel: 'No messages',
      policyShare: 0.615,
      controlShare: 0.5,
      points: expect.closeTo(11.5, 9),
      patients: 1000,
      seed: 7,
      period: { from: '2025-01-01', to: '2025-12-31' },
    });
  });

  it('is null without both runs', () => {
    expect(simulatedAdherenceEffectOf({ simulations: simulations.slice(0, 3), seed: 1, startDay: comparisonStartDay })).toBeNull();
  });
});

describe('getSimulatedAdherenceEffect', () => {
  it('reads only the default cohort’s cached simulation: null until it is simulated, never simulating itself', () => {
    expect(getSimulatedAdherenceEffect()).toBeNull();
    rememberSimulations({ patients: comparisonDefaults.patients + 1, seed: comparisonDefaults.seed }, simulations);
    expect(getSimulatedAdherenceEffect()).toBeNull();
    rememberSimulations({ patients: comparisonDefaults.patients, seed: comparisonDefaults.seed }, simulations);
    expect(getSimulatedAdherenceEffect()?.points).toBeCloseTo(11.5, 9);
  });
});
