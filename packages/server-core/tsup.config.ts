import { defineConfig } from 'tsup';

export default defineConfig({
  // One naming scheme: every entry is an index.ts; its folder is the subpath.
  entry: {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'adapter/index': 'src/adapter/index.ts',
    'adapter/node/index': 'src/adapter/node/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: true,
});
