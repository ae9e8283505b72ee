import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  // ES2022 and no Node target: the same build is bundled into the browser inspector.
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  treeshake: true,
});
