import { defineConfig } from 'vitest/config';

// `pnpm test:large`: the tests of 100 MiB and more (files named *.large.test.ts under a package's
// test/large/), kept out of `pnpm test` so the functional suite stays quick. Some of them run the
// built packages in child processes; `pnpm test:large` builds first, so they never see a stale dist/.
export default defineConfig({
  test: {
    include: ['packages/*/test/large/**/*.large.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // One at a time: each of these holds a core and writes large temporary files.
    fileParallelism: false,
    reporters: process.env.VITEST_JSON
      ? ['default', ['json', { outputFile: process.env.VITEST_JSON }]]
      : ['default'],
  },
});
