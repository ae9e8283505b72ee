import { defineConfig } from 'tsup';

export default defineConfig({
  // One naming scheme: a subpath's entry is its folder's index.ts.
  entry: { index: 'src/index.ts', internal: 'src/internal/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  // ES2022 and no Node target: the same build is bundled into the browser inspector.
  target: 'es2022',
  platform: 'neutral',
  // Shared chunks: both entries must see one copy of each module (InspectError among them).
  splitting: true,
  treeshake: true,
});
