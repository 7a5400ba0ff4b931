import { describe, expect, it } from 'vitest';
import { roundHalfEven } from './round-half-even';

describe('roundHalfEven', () => {
  it('rounds halves to the even neighbour as R does', () => {
    expect(roundHalfEven(272.5)).toBe(272);
    expect(roundHalfEven(273.5)).toBe(274);
    expect(roundHalfEven(-0.5)).toBe(0);
    expect(roundHalfEven(-1.5)).toBe(-2);
  });

  it('rounds everything else to the nearest integer', () => {
    expect(roundHalfEven(272.4999)).toBe(272);
    expect(roundHalfEven(272.5001)).toBe(273);
    expect(roundHalfEven(7)).toBe(7);
  });
});
