/**
 * Recent simulations by cohort size and seed, so showing the page, changing only the prices, or asking again
 * for a comparison just run costs nothing. Price-independent and small (a few numbers per policy). Kept on
 * globalThis because the server entry (the job worker) and the Next.js bundle each load their own copy of
 * this module; a cache per instance is enough, as any instance can recompute a result.
 */
import 'server-only';
import type { PolicySimulation } from './simulate-policies';

const maximumEntries = 32;
const cacheKey = Symbol.for('medaptive.policy-comparison-cache');
type GlobalWithCache = typeof globalThis & { [cacheKey]?: Map<string, PolicySimulation[]> };

function cache(): Map<string, PolicySimulation[]> {
  const holder = globalThis as GlobalWithCache;
  holder[cacheKey] ??= new Map();
  return holder[cacheKey];
}

const keyOf = (cohort: { patients: number; seed: number }) => `${cohort.patients}/${cohort.seed}`;

export function cachedSimulations(cohort: { patients: number; seed: number }): PolicySimulation[] | undefined {
  const entries = cache();
  const found = entries.get(keyOf(cohort));
  if (found !== undefined) {
    // Most recently used last: the Map's order is the eviction order.
    entries.delete(keyOf(cohort));
    entries.set(keyOf(cohort), found);
  }
  return found;
}

export function rememberSimulations(cohort: { patients: number; seed: number }, simulations: PolicySimulation[]): void {
  const entries = cache();
  entries.delete(keyOf(cohort));
  entries.set(keyOf(cohort), simulations);
  while (entries.size > maximumEntries) entries.delete(entries.keys().next().value!);
}
