/**
 * Seeded random streams. Every patient draws from its own streams, derived from the cohort seed by
 * hashing (not by position in a shared sequence), so a patient's draws do not depend on how many
 * other patients there are or on the order in which the simulator visits them.
 */
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

export type RandomStream = RandomGenerator;

/** Independent purposes a patient draws randomness for; each gets its own stream. */
export const streamPurposes = {
  /** Who the patient is: persona, demographics, traits, routine, life events. */
  profile: 1,
  /** Daily behaviour that happens with or without messages (forgetting, refills, stopping). */
  behaviour: 2,
  /** Everything a message sets off: delivery, reading, its effect, replies, opt-out. */
  messaging: 3,
  /** What the monitoring devices observe (app logging). */
  observation: 4,
  /** Handed to the messaging policy, so a randomised policy never consumes the patient's draws. */
  policy: 5,
  /** Answers to surveys (synthetic demo responses). */
  survey: 6,
} as const;

export type StreamPurpose = keyof typeof streamPurposes;

/** Murmur3's 32-bit finaliser: a cheap bijective mix with full avalanche. */
function mix32(value: number): number {
  let hash = value | 0;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0;
}

/** A stream for (seed, patient index, purpose); the same triple always yields the same sequence. */
export function createRandomStream(seed: number, patientIndex: number, purpose: StreamPurpose): RandomStream {
  const base = mix32(mix32(seed ^ 0x9e3779b9) ^ mix32(patientIndex + 0x632be5ab) ^ mix32(streamPurposes[purpose] * 0x1b873593));
  const state: number[] = [mix32(base + 0x68e31da4), mix32(base + 0x3c6ef372), mix32(base + 0x1f83d9ab), mix32(base + 0x5be0cd19)];
  // xoroshiro128+ must not start from the all-zero state.
  if ((state[0]! | state[1]! | state[2]! | state[3]!) === 0) state[0] = 1;
  return xoroshiro128plusFromState(state);
}

const twoToMinus32 = 2 ** -32;

/** Uniform in [0, 1) with 32 bits of resolution: one generator step, which is plenty for a simulation. */
export function nextUniform(stream: RandomStream): number {
  return (stream.next() >>> 0) * twoToMinus32;
}

/** Uniform integer in [minimum, maximum]. */
export function nextInteger(stream: RandomStream, minimum: number, maximum: number): number {
  return minimum + Math.floor(nextUniform(stream) * (maximum - minimum + 1));
}

/** Standard normal by Box–Muller (one value per call; the second is discarded to keep draws countable). */
export function nextNormal(stream: RandomStream): number {
  const radius = Math.sqrt(-2 * Math.log(1 - nextUniform(stream)));
  return radius * Math.cos(2 * Math.PI * nextUniform(stream));
}

/** Index drawn with probability proportional to `weights`. */
export function nextWeightedIndex(stream: RandomStream, weights: readonly number[]): number {
  return weightedIndexOf(weights, nextUniform(stream));
}

/** The index a uniform draw in [0, 1) already taken picks, with probability proportional to `weights`. */
export function weightedIndexOf(weights: readonly number[], draw: number): number {
  let total = 0;
  for (const weight of weights) total += weight;
  let threshold = draw * total;
  for (let index = 0; index < weights.length; index += 1) {
    threshold -= weights[index] ?? 0;
    if (threshold < 0) return index;
  }
  return weights.length - 1;
}

/** A proportion in (0, 1) around `median`: logit-normal with `spread` on the logit scale, cheap and bounded. */
export function nextProportion(stream: RandomStream, median: number, spread: number): number {
  const clampedMedian = Math.min(0.999, Math.max(0.001, median));
  const logit = Math.log(clampedMedian / (1 - clampedMedian)) + spread * nextNormal(stream);
  return 1 / (1 + Math.exp(-logit));
}
