import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandomStream, nextInteger, nextProportion, nextUniform, nextWeightedIndex } from './random';

function draws(seed: number, patientIndex: number, purpose: Parameters<typeof createRandomStream>[2], count = 8): number[] {
  const stream = createRandomStream(seed, patientIndex, purpose);
  return Array.from({ length: count }, () => nextUniform(stream));
}

describe('random streams', () => {
  it('repeat exactly for the same seed, patient and purpose', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat({ max: 1_000_000 }), (seed, patientIndex) => {
        expect(draws(seed, patientIndex, 'behaviour')).toEqual(draws(seed, patientIndex, 'behaviour'));
      }),
    );
  });

  it('differ between seeds, patients and purposes', () => {
    const reference = draws(1, 0, 'behaviour');
    expect(draws(2, 0, 'behaviour')).not.toEqual(reference);
    expect(draws(1, 1, 'behaviour')).not.toEqual(reference);
    expect(draws(1, 0, 'messaging')).not.toEqual(reference);
  });

  it('give neighbouring patients uncorrelated first draws', () => {
    const first = Array.from({ length: 20_000 }, (_, index) => nextUniform(createRandomStream(7, index, 'profile')));
    const mean = first.reduce((sum, value) => sum + value, 0) / first.length;
    let lagCovariance = 0;
    for (let index = 1; index < first.length; index += 1) lagCovariance += (first[index]! - mean) * (first[index - 1]! - mean);
    expect(mean).toBeCloseTo(0.5, 1);
    // Variance of a uniform is 1/12; the lag-1 correlation of independent draws is about ±0.007 here.
    expect(Math.abs(lagCovariance / (first.length - 1) / (1 / 12))).toBeLessThan(0.03);
  });
});

describe('draw helpers', () => {
  it('keep uniforms in [0, 1) and integers in their bounds', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 100 }), (seed, minimum, width) => {
        const stream = createRandomStream(seed, 0, 'profile');
        for (let draw = 0; draw < 50; draw += 1) {
          const uniform = nextUniform(stream);
          expect(uniform).toBeGreaterThanOrEqual(0);
          expect(uniform).toBeLessThan(1);
          const integer = nextInteger(stream, minimum, minimum + width);
          expect(Number.isInteger(integer)).toBe(true);
          expect(integer).toBeGreaterThanOrEqual(minimum);
          expect(integer).toBeLessThanOrEqual(minimum + width);
        }
      }),
    );
  });

  it('never pick an index of zero weight, and pick in proportion to weight', () => {
    const stream = createRandomStream(3, 0, 'profile');
    const counts = [0, 0, 0];
    for (let draw = 0; draw < 30_000; draw += 1) counts[nextWeightedIndex(stream, [1, 0, 3])]! += 1;
    expect(counts[1]).toBe(0);
    expect(counts[2]! / counts[0]!).toBeGreaterThan(2.8);
    expect(counts[2]! / counts[0]!).toBeLessThan(3.2);
  });

  it('keep proportions inside (0, 1) around their median', () => {
    const stream = createRandomStream(4, 0, 'profile');
    const values = Array.from({ length: 10_001 }, () => nextProportion(stream, 0.1, 0.6)).sort((left, right) => left - right);
    expect(values[0]).toBeGreaterThan(0);
    expect(values.at(-1)).toBeLessThan(1);
    expect(values[5000]).toBeGreaterThan(0.09);
    expect(values[5000]).toBeLessThan(0.11);
  });
});
