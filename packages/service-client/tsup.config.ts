import { defineConfig } from 'tsup';

export default defineConfig({
  // One naming scheme: a subpath's entry is its folder's index.ts.
  entry: {
    index: 'src/index.ts',
    auth: 'src/auth/index.ts',
    transcription: 'src/transcription/index.ts',
    webhooks: 'src/webhooks/index.ts',
    node: 'src/node/index.ts',
    redis: 'src/redis/index.ts',
    express: 'src/express/index.ts',
    fastify: 'src/fastify/index.ts',
    hono: 'src/hono/index.ts',
    ky: 'src/ky/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Shared chunks, so that every subpath sees the same error classes (instanceof holds across them).
  splitting: true,
  treeshake: true,
  // Keep `node:` specifiers: Deno and Bun resolve them without guessing.
  removeNodeProtocol: false,
});
