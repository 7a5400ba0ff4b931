import { describe, expect, it } from 'vitest';
import { comparisonDefaults } from '../schemas';
import { cachedSimulations } from './simulation-cache';
import { comparedPolicies } from './simulate-policies';
import { warmDefaultComparison } from './warm-default-comparison';

describe('warmDefaultComparison', () => {
  it("simulates the page's default cohort in a worker thread, caches it, and is free the second time", async () => {
    const cohort = { patients: comparisonDefaults.patients, seed: comparisonDefaults.seed };
    expect(cachedSimulations(cohort)).toBeUndefined();
    expect(await warmDefaultComparison()).toBeGreaterThan(0);
    expect(cachedSimulations(cohort)?.map((simulation) => [simulation.policy, simulation.patients])).toEqual(
      comparedPolicies.map((policy) => [policy, cohort.patients]),
    );
    expect(await warmDefaultComparison()).toBe(0);
  }, 120_000);
});
