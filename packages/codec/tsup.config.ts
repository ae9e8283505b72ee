import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.node.ts', 'src/index.web.ts', 'src/diagnostics/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
});
