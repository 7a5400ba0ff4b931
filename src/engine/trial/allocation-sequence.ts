/**
 * Concealed, stratified permuted-block randomisation for enrolment one participant at a time: the arm of
 * the participant at `position` (0-based) of a stratum's sequence. Each stratum has its own sequence, drawn
 * from the trial's secret seed and the stratum's name, made of blocks whose sizes are drawn from
 * `blockSizes` (several sizes, so the last places of a block cannot be guessed) and each hold as many
 * control as intervention places in a random order. The same seed, stratum and position always give the
 * same arm, so the sequence needs no storage and enrolment needs only a count of the stratum so far.
 */
import { fnv1a32 } from '@/engine/hash/fnv1a';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export type TrialArm = 'control' | 'intervention';

export type SequenceAllocation = { arm: TrialArm; /** 1-based block number within the stratum. */ block: number };

/** Mixes the stratum's name into the seed. */
const hashText = (text: string, seed: number): number => fnv1a32(text, (0x811c9dc5 ^ seed) >>> 0);

export function allocationSequence(options: {
  seed: number;
  stratum: string;
  /** Even sizes of at least 2; one is drawn for each block. */
  blockSizes: readonly number[];
  length: number;
}): SequenceAllocation[] {
  const { blockSizes, length } = options;
  if (blockSizes.length === 0 || blockSizes.some((size) => !Number.isInteger(size) || size < 2 || size % 2 !== 0))
    throw new RangeError(`blockSizes must be even integers of at least 2, got ${blockSizes.join(', ')}`);
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be a whole number, got ${length}`);
  const random = xoroshiro128plus(hashText(options.stratum, options.seed));
  const sequence: SequenceAllocation[] = [];
  for (let block = 1; sequence.length < length; block += 1) {
    const size = blockSizes[blockSizes.length === 1 ? 0 : uniformInt(random, 0, blockSizes.length - 1)]!;
    const arms: TrialArm[] = [...Array<TrialArm>(size / 2).fill('control'), ...Array<TrialArm>(size / 2).fill('intervention')];
    for (let index = arms.length - 1; index > 0; index -= 1) {
      const other = uniformInt(random, 0, index);
      [arms[index], arms[other]] = [arms[other]!, arms[index]!];
    }
    for (const arm of arms) sequence.push({ arm, block });
  }
  return sequence.slice(0, length);
}

/** The allocation of the participant at `position` of the stratum's sequence. */
export function allocateAtPosition(options: {
  seed: number;
  stratum: string;
  blockSizes: readonly number[];
  position: number;
}): SequenceAllocation {
  if (!Number.isInteger(options.position) || options.position < 0)
    throw new RangeError(`position must be a whole number, got ${options.position}`);
  return allocationSequence({ ...options, length: options.position + 1 })[options.position]!;
}
