import { defineConfig } from 'tsup';

// One source (src/index.ts), two builds: the package's `#backend` import condition resolves to
// node:crypto under esbuild's `node` platform and to WebCrypto under `browser`. package.json's
// exports hand the Node build to the `node` condition and the WebCrypto build to everyone else.
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
  { ...shared, entry: { index: 'src/index.ts' }, platform: 'browser' },
]);
