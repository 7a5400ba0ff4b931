/** Test-only comparison of a computed value with a reference cell (NA ↔ null, Inf ↔ Infinity, else 1e-9). */
import { expect } from 'vitest';
import { referenceValue } from './reference-files';

export const REFERENCE_TOLERANCE = 1e-9;

export function expectReferenceValue(actual: number | null, expectedText: string | undefined, label: string): void {
  const expected = referenceValue(expectedText);
  if (expected === null || expected === Infinity) {
    expect(actual, label).toBe(expected);
    return;
  }
  expect(actual, label).not.toBeNull();
  expect(Math.abs((actual ?? NaN) - expected), `${label}: ${actual} vs ${expected}`).toBeLessThanOrEqual(REFERENCE_TOLERANCE);
}
