import { defineConfig } from 'vitest/config';

// One run covers every package so that CI can count the whole suite from a single JSON report.
export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test-vectors/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
