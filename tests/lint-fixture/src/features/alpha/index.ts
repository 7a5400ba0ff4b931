// Fixture for src/lib/lint-boundaries.test.ts: a feature with a public index.ts.
export { alphaValue } from './internal';
