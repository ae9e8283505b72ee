import { defineConfig } from 'tsup';

// The runnable app: main.ts starts @jwe-transport/reference-service from the environment.
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
