import { defineConfig } from 'tsup';

export default defineConfig({
  // index: MSW handlers and builders (any runtime); undici: the MockAgent helper (Node);
  // reference-service: @jwe-transport/reference-service started with test defaults (Node).
  entry: {
    index: 'src/index.ts',
    undici: 'src/undici/index.ts',
    'reference-service': 'src/reference-service/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
});
