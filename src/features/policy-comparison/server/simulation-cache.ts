/**
 * Recent simulations by cohort size and seed, so showing the page, changing only the prices, or asking again
 * for a comparison just run costs nothing. Price-independent and small (a few numbers per policy). Kept on
 * globalThis because the server entry (the job worker) and the Next.js bundle each load their own copy of
 * this module; a cache per instance is enough, as any instance can recompute a result.
 */
import 'server-only';
import { LRUCache } from 'lru-cache';
import type { PolicySimulation } from './simulate-policies';

const maximumEntries = 32;
const cacheKey = Symbol.for('medaptive.policy-comparison-cache');
type GlobalWithCache = typeof globalThis & { [cacheKey]?: LRUCache<string, PolicySimulation[]> };

function cache(): LRUCache<string, PolicySimulation[]> {
  const holder = globalThis as GlobalWithCache;
  holder[cacheKey] ??= new LRUCache({ max: maximumEntries });
  return holder[cacheKey];
}

const keyOf = (cohort: { patients: number; seed: number }) => `${cohort.patients}/${cohort.seed}`;

/** The cohort's simulations if still cached (reading one keeps it, as the least recently used goes first). */
export function cachedSimulations(cohort: { patients: number; seed: number }): PolicySimulation[] | undefined {
  return cache().get(keyOf(cohort));
}

export function rememberSimulations(cohort: { patients: number; seed: number }, simulations: PolicySimulation[]): void {
  cache().set(keyOf(cohort), simulations);
}
