import { describe, expect, it } from 'vitest';
import { cachedSimulations, rememberSimulations } from './simulation-cache';
import type { PolicySimulation } from './simulate-policies';

describe('simulation cache', () => {
  it('keeps the 32 most recently used cohorts; reading one keeps it', () => {
    // Cohort sizes no other test uses: the cache lives on globalThis.
    const cohort = (index: number) => ({ patients: 900_000 + index, seed: 1 });
    const simulations = (index: number) => [{ patients: index } as unknown as PolicySimulation];
    for (let index = 0; index < 32; index += 1) rememberSimulations(cohort(index), simulations(index));
    expect(cachedSimulations(cohort(0))).toEqual(simulations(0));
    rememberSimulations(cohort(32), simulations(32));
    expect(cachedSimulations(cohort(1))).toBeUndefined();
    expect(cachedSimulations(cohort(0))).toEqual(simulations(0));
    expect(cachedSimulations(cohort(32))).toEqual(simulations(32));
  });
});
