import { defineConfig } from 'vitest/config';

const nodeMajor = Number(process.versions.node.split('.')[0]);

// One run covers every package so that CI can count the whole suite from a single JSON report.
// Tests that run the built packages (CLI binaries, child processes) need a fresh dist/: `pnpm test`
// builds first. Tests of 100 MiB and more (*.large.test.ts) run in `pnpm test:large` instead
// (vitest.large.config.ts).
// Files named *.node22.test.ts need Node >= 22 (ky 2.x does); they join the run only there, so
// Node 20 runs report no skipped tests and CI's Node 24 pass runs them.
export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'test-vectors/*.test.ts',
      'runtime-tests/**/*.test.ts',
      'docs/recipes/*.test.ts',
      'scripts/*.test.ts',
    ],
    exclude: [
      '**/node_modules/**',
      '**/*.large.test.ts',
      ...(nodeMajor >= 22 ? [] : ['**/*.node22.test.ts']),
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // CI asks for a JSON report (VITEST_JSON=path) to count passed and failed tests across runs.
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
