import { defineConfig } from 'tsup';

export default defineConfig({
  // One build for every runtime: client-core's own export conditions pick its Node or browser side.
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  removeNodeProtocol: false,
});
