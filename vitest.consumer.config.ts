import { defineConfig } from 'vitest/config';

// `pnpm test:consumer`: what a user gets who installs the packed packages with npm into a fresh
// project, on the machine's Node (20) and on Node 24 (consumer-tests/). Needs a built tree
// (`pnpm build`, which `pnpm test` runs first). CI counts its JSON report (VITEST_JSON) with the
// other runs. Its installs share npm's one cache (~/.npm).
export default defineConfig({
  test: {
    include: ['consumer-tests/**/*.test.ts'],
    globalSetup: ['consumer-tests/setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The work is mostly waiting (npm, child processes): more workers than cores pay off.
    maxWorkers: 4,
    maxConcurrency: 4,
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
