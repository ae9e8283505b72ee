import { readFileSync, rmSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const shared = {
  target: 'node20',
  sourcemap: true,
  splitting: false,
  define: { __CLI_VERSION__: JSON.stringify(version) },
} as const;

// Cleaned once here: two parallel builds that each clean could delete each other's output.
rmSync(new URL('./dist', import.meta.url), { recursive: true, force: true });

export default defineConfig([
  // The library entry: `run(argv, io)` for embedding and tests, published as ESM + CJS + types.
  // shims: the CJS build gets import.meta.url from __filename, which `web` needs to find inspector.html.
  { ...shared, entry: ['src/index.ts'], format: ['esm', 'cjs'], dts: true, clean: false, shims: true },
  // The executable: one ESM file behind the `bin` entry.
  {
    ...shared,
    entry: ['src/bin.ts'],
    format: ['esm'],
    dts: false,
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
