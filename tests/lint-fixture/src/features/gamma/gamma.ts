// Fixture for src/lib/lint-boundaries.test.ts: the feature whose imports the test lints.
export const gammaValue = 3;
