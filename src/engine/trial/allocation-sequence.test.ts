import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateAtPosition, allocationSequence } from './allocation-sequence';

const blockSizeSets = [[2], [4], [4, 6], [2, 4, 8]] as const;

/** The blocks of a sequence, in order: their sizes and their arms. */
function blocksOf(sequence: ReturnType<typeof allocationSequence>) {
  const blocks = new Map<number, string[]>();
  for (const entry of sequence) blocks.set(entry.block, [...(blocks.get(entry.block) ?? []), entry.arm]);
  return [...blocks.entries()].sort(([a], [b]) => a - b).map(([, arms]) => arms);
}

describe('allocationSequence', () => {
  it('is deterministic: the same seed, stratum and position always give the same arm, as one-at-a-time enrolment needs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.string({ maxLength: 20 }),
        fc.nat({ max: 120 }),
        (seed, stratum, position) => {
          const sequence = allocationSequence({ seed, stratum, blockSizes: [4, 6], length: position + 1 });
          expect(allocateAtPosition({ seed, stratum, blockSizes: [4, 6], position })).toEqual(sequence[position]);
          // A longer sequence starts with the shorter one: enrolling more never changes an earlier arm.
          expect(allocationSequence({ seed, stratum, blockSizes: [4, 6], length: position + 10 }).slice(0, position + 1)).toEqual(sequence);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('keeps the arms of a stratum within max(block size) / 2 at every position, and 1:1 at every block end', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...blockSizeSets),
        fc.nat({ max: 200 }),
        (seed, blockSizes, length) => {
          const sequence = allocationSequence({ seed, stratum: 'busy-professional', blockSizes, length });
          let balance = 0;
          for (const [index, entry] of sequence.entries()) {
            balance += entry.arm === 'control' ? 1 : -1;
            expect(Math.abs(balance)).toBeLessThanOrEqual(Math.max(...blockSizes) / 2);
            const blockEnds = sequence[index + 1] === undefined ? false : sequence[index + 1]!.block !== entry.block;
            if (blockEnds) expect(balance).toBe(0);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('draws every block size from the set, each block half control and half intervention', () => {
    const sequence = allocationSequence({ seed: 20_261_124, stratum: 'forgetful', blockSizes: [4, 6], length: 600 });
    // The last block may be cut short by the length.
    const blocks = blocksOf(sequence).slice(0, -1);
    const sizes = new Set(blocks.map((arms) => arms.length));
    expect([...sizes].sort()).toEqual([4, 6]);
    for (const arms of blocks) expect(arms.filter((arm) => arm === 'control')).toHaveLength(arms.length / 2);
    // Both sizes are drawn often (each about half the time), so the last places of a block cannot be counted out.
    const fours = blocks.filter((arms) => arms.length === 4).length;
    expect(fours / blocks.length).toBeGreaterThan(0.3);
    expect(fours / blocks.length).toBeLessThan(0.7);
  });

  it('gives each stratum its own sequence and each seed its own', () => {
    const arms = (seed: number, stratum: string) =>
      allocationSequence({ seed, stratum, blockSizes: [4, 6], length: 60 })
        .map((entry) => entry.arm[0])
        .join('');
    expect(arms(1, 'a')).not.toBe(arms(1, 'b'));
    expect(arms(1, 'a')).not.toBe(arms(2, 'a'));
    expect(arms(1, 'a')).toBe(arms(1, 'a'));
  });

  it('refuses odd or too small block sizes and a bad position', () => {
    expect(() => allocationSequence({ seed: 1, stratum: 'a', blockSizes: [3], length: 4 })).toThrow(RangeError);
    expect(() => allocationSequence({ seed: 1, stratum: 'a', blockSizes: [], length: 4 })).toThrow(RangeError);
    expect(() => allocateAtPosition({ seed: 1, stratum: 'a', blockSizes: [4], position: -1 })).toThrow(RangeError);
    expect(() => allocateAtPosition({ seed: 1, stratum: 'a', blockSizes: [4], position: 1.5 })).toThrow(RangeError);
  });
});
