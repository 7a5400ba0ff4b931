/**
 * Stratified permuted-block randomisation (DESIGN §3 "Trial statistics"): within each stratum, participants
 * are allocated in blocks of `blockSize` that each hold as many control as intervention places in a random
 * order, so the arms stay balanced within every stratum (never more than blockSize / 2 apart) while the
 * next allocation stays unpredictable. Seeded, so the same participants in the same order always get the
 * same arms.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export type TrialArm = 'control' | 'intervention';

export type Allocation<Participant> = { participant: Participant; stratum: string; arm: TrialArm; block: number };

export function allocatePermutedBlocks<Participant>(options: {
  /** In enrolment order: allocation follows it. */
  participants: readonly Participant[];
  stratumOf: (participant: Participant) => string;
  /** Even; 4 by default (two places per arm). */
  blockSize?: number;
  seed: number;
}): Allocation<Participant>[] {
  const blockSize = options.blockSize ?? 4;
  if (!Number.isInteger(blockSize) || blockSize < 2 || blockSize % 2 !== 0)
    throw new RangeError(`blockSize must be an even integer of at least 2, got ${blockSize}`);
  const random = xoroshiro128plus(options.seed);
  const open = new Map<string, { arms: TrialArm[]; block: number }>();
  return options.participants.map((participant) => {
    const stratum = options.stratumOf(participant);
    let current = open.get(stratum);
    if (current === undefined || current.arms.length === 0) {
      // A fresh block: half of each arm, shuffled (Fisher–Yates).
      const arms: TrialArm[] = [...Array<TrialArm>(blockSize / 2).fill('control'), ...Array<TrialArm>(blockSize / 2).fill('intervention')];
      for (let index = arms.length - 1; index > 0; index -= 1) {
        const other = uniformInt(random, 0, index);
        [arms[index], arms[other]] = [arms[other]!, arms[index]!];
      }
      current = { arms, block: (current?.block ?? 0) + 1 };
      open.set(stratum, current);
    }
    const arm = current.arms.shift() ?? 'control';
    return { participant, stratum, arm, block: current.block };
  });
}
