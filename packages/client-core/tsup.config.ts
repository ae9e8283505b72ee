import { defineConfig } from 'tsup';

export default defineConfig({
  // One naming scheme: a subpath's entry is its folder's index.ts (the default and browser build),
  // with index.node.ts beside it where Node adds helpers. `adapter/` is what HTTP adapters are
  // built from (`@jwe-transport/client-core/adapter`).
  entry: {
    index: 'src/index.ts',
    'index.node': 'src/index.node.ts',
    adapter: 'src/adapter/index.ts',
    'adapter.node': 'src/adapter/index.node.ts',
  },
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
