import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', upload: 'src/upload/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
});
