import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/undici.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
});
