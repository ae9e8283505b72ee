import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLERS, bundleForBrowser } from '../support/bundle.js';

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'jwe-bundle-check-'));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

// The browser suites trust a successful bundle to mean "needs no Node built-in"; this proves the
// bundling setup fails when code does import one, instead of marking it external or shimming it.
describe.each(BUNDLERS)('bundling for the browser with %s', (bundler) => {
  it('fails on an import of a Node built-in', async () => {
    const entry = fileURLToPath(new URL('./entries/node-builtin.js', import.meta.url));
    await expect(bundleForBrowser(bundler, entry, join(out, bundler))).rejects.toThrow(/node:crypto/);
  });
});
