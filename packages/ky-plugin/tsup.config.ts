import { defineConfig } from 'tsup';

export default defineConfig({
  // index.ts is the Node build; index.browser.ts leaves out what needs node:fs.
  entry: ['src/index.ts', 'src/index.browser.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  splitting: false,
  removeNodeProtocol: false,
});
