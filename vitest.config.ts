import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'src'),
      'server-only': path.resolve(import.meta.dirname, 'src/lib/server-only-stub.ts'),
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
    // Migrates the template that every test database is copied from (src/db/testing.ts).
    globalSetup: ['src/db/testing-global-setup.ts'],
    // One worker per core. Vitest's default (cores − 1) runs the files one at a time on the 2-core CI machine, where
    // the main process mostly waits: two workers took the suite from about 1,170 s to 820 s there.
    maxWorkers: os.availableParallelism(),
    // A guard against a hang, not a speed check: with two workers on a loaded machine the heaviest tests without
    // their own timeout (cohort simulations, pre-aggregate refreshes) take 10–16 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: 'silent' },
  },
});
