import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/*
 * The published types, as a user compiles them: test/types/ imports the package by name, so
 * TypeScript reads the BUILT .d.ts through the package's exports (`pnpm test` builds first),
 * with lib dom, strict, skipLibCheck off and no Node types. It proves that the bytes the codec
 * returns are Uint8Array<ArrayBuffer>, which Blob, Response and crypto.subtle accept.
 */

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const project = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));

it('user code that hands the codec bytes to Blob, Response and crypto.subtle compiles against the built types', () => {
  const run = spawnSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8' });
  expect(run.stdout + run.stderr).toBe('');
  expect(run.status).toBe(0);
});
