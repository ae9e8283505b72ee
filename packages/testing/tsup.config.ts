import { defineConfig } from 'tsup';

export default defineConfig({
  // index: MSW handlers and builders (any runtime); undici: the MockAgent helper (Node);
  // reference-service: the repository's private reference service, bundled in (Node).
  entry: ['src/index.ts', 'src/undici.ts', 'src/reference-service.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  treeshake: true,
  removeNodeProtocol: false,
  // The reference service is private to the repository: its code ships inside this package, while
  // its runtime dependencies (express, busboy, the jwe-transport packages) stay dependencies.
  noExternal: ['@jwe-transport/example-service'],
});
