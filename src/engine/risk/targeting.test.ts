import { describe, expect, it } from 'vitest';
import { predictLast30Day } from './rule';
import { simulateTargeting } from './targeting';

describe('targeting by risk (simulated)', () => {
  it('spends the same budget at random and by risk, and is reproducible with a seed', () => {
    const options = { patients: 200, seed: 9, score: predictLast30Day, historyWeeks: 5, followUpWeeks: 2, share: 0.25 };
    const effect = simulateTargeting(options);
    const byScenario = Object.fromEntries(effect.results.map((result) => [result.scenario, result]));
    expect(byScenario['no-one']!.messages).toBe(0);
    expect(byScenario.random!.patientsMessaged).toBe(50);
    expect(byScenario['top-risk']!.patientsMessaged).toBe(50);
    // A daily reminder each follow-up day to each chosen patient (less any who opted out or failed to send).
    expect(byScenario.random!.messages).toBeLessThanOrEqual(50 * 14);
    expect(byScenario.random!.messages).toBeGreaterThan(50 * 14 * 0.8);
    expect(byScenario.everyone!.messages).toBeGreaterThan(byScenario['top-risk']!.messages);
    for (const result of effect.results) expect(result.adherence).toBeGreaterThan(0);
    expect(simulateTargeting(options)).toEqual(effect);
  });
});
