import { defineConfig } from 'tsup';

// One source (src/index.ts), three builds, told apart by the package's `#backend` import condition:
// node:crypto under esbuild's `node` platform, WebCrypto under `browser`, and for Deno (the `deno`
// condition, listed before `node` in `imports`) WebCrypto one-shot with node:crypto streaming.
// package.json's exports hand each build to the runtime whose condition it names.
const shared = {
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
} as const;

export default defineConfig([
  {
    ...shared,
    entry: { 'index.node': 'src/index.ts', 'diagnostics/index': 'src/diagnostics/index.ts' },
    platform: 'node',
  },
  {
    ...shared,
    entry: { 'index.deno': 'src/index.ts' },
    platform: 'node',
    esbuildOptions(options) {
      options.conditions = ['deno'];
    },
  },
  { ...shared, entry: { index: 'src/index.ts' }, platform: 'browser' },
]);
