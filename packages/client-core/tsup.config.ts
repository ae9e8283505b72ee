import { defineConfig } from 'tsup';

export default defineConfig({
  // index.ts is the default and browser build; index.node.ts adds the Node-only helpers.
  entry: ['src/index.ts', 'src/index.node.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  // Keep 'node:fs' as written: Deno and Bun resolve the prefixed names only.
  removeNodeProtocol: false,
});
