import { defineConfig } from 'tsup';

export default defineConfig({
  entry: [
    'src/index.ts',
    'src/auth.ts',
    'src/transcription.ts',
    'src/webhooks.ts',
    'src/node.ts',
    'src/redis.ts',
    'src/express.ts',
    'src/fastify.ts',
    'src/hono.ts',
    'src/ky.ts',
  ],
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
