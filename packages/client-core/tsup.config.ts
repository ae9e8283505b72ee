import { defineConfig } from 'tsup';

export default defineConfig({
  // index.ts is the default and browser build; index.node.ts adds the Node-only helpers. The
  // adapter entries add what HTTP adapters are built from (`@jwe-transport/client-core/adapter`).
  entry: ['src/index.ts', 'src/index.node.ts', 'src/adapter.ts', 'src/adapter.node.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Shared chunks: the root and adapter entries must share one copy of each module, or a response
  // an adapter decrypted would not be `wasDecrypted` by the root's, nor its errors `instanceof`.
  splitting: true,
  treeshake: true,
  // Keep 'node:fs' as written: Deno and Bun resolve the prefixed names only.
  removeNodeProtocol: false,
});
