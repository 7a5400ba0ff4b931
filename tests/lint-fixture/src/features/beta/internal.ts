// Fixture for src/lib/lint-boundaries.test.ts: a feature without a public index.ts.
export const betaValue = 2;
