// Fixture for src/lib/lint-boundaries.test.ts: an internal module of a feature that has a public index.ts.
export const alphaValue = 1;
