import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocatePermutedBlocks } from './permuted-blocks';

const strata = ['a', 'b', 'c'] as const;

describe('allocatePermutedBlocks', () => {
  it('keeps every stratum within blockSize / 2 of 1:1 at every point of enrolment', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...strata), { maxLength: 300 }),
        fc.nat(),
        fc.constantFrom(2, 4, 6),
        (participants, seed, blockSize) => {
          const allocations = allocatePermutedBlocks({ participants, stratumOf: (stratum) => stratum, blockSize, seed });
          const balance = new Map<string, number>();
          for (const allocation of allocations) {
            const next = (balance.get(allocation.stratum) ?? 0) + (allocation.arm === 'control' ? 1 : -1);
            balance.set(allocation.stratum, next);
            expect(Math.abs(next)).toBeLessThanOrEqual(blockSize / 2);
          }
          // A stratum whose enrolment ends on a block boundary is exactly 1:1.
          for (const stratum of strata) {
            const count = participants.filter((participant) => participant === stratum).length;
            if (count % blockSize === 0) expect(balance.get(stratum) ?? 0).toBe(0);
          }
        },
      ),
    );
  });

  it('numbers blocks within each stratum and fills each with half of each arm', () => {
    const participants = Array.from({ length: 40 }, (_, index) => (index % 2 === 0 ? 'a' : 'b'));
    const allocations = allocatePermutedBlocks({ participants, stratumOf: (stratum) => stratum, seed: 7 });
    for (const stratum of ['a', 'b']) {
      const mine = allocations.filter((allocation) => allocation.stratum === stratum);
      expect(mine.map((allocation) => allocation.block)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5]);
      for (let block = 1; block <= 5; block += 1) {
        expect(mine.filter((allocation) => allocation.block === block && allocation.arm === 'control')).toHaveLength(2);
      }
    }
  });

  it('is deterministic for a seed and varies between seeds', () => {
    const participants = Array.from({ length: 64 }, (_, index) => `p${index}`);
    const arms = (seed: number) =>
      allocatePermutedBlocks({ participants, stratumOf: () => 'all', seed }).map((allocation) => allocation.arm);
    expect(arms(1)).toEqual(arms(1));
    expect(arms(1)).not.toEqual(arms(2));
  });

  it('refuses a block that cannot hold both arms equally', () => {
    expect(() => allocatePermutedBlocks({ participants: ['x'], stratumOf: () => 's', blockSize: 3, seed: 1 })).toThrow(/blockSize/);
  });
});
