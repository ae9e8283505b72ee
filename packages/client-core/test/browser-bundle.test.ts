import { fileURLToPath } from 'node:url';
import { bundleForBrowser, NODE_IMPORT } from '@jwe-transport/test-support/client/browser-bundle';
import { describe, expect, it } from 'vitest';

describe('the published build, bundled for a browser', () => {
  it('resolves the browser build and imports no Node built-in', async () => {
    const bundle = await bundleForBrowser(
      '@jwe-transport/client-core',
      fileURLToPath(new URL('..', import.meta.url)),
    );
    expect(bundle.errors).toEqual([]);
    expect(bundle.inputs.some((path) => path.endsWith('client-core/dist/index.js'))).toBe(true);
    expect(bundle.inputs.some((path) => path.endsWith('codec/dist/index.js'))).toBe(true);
    expect(bundle.inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(bundle.code).not.toMatch(NODE_IMPORT);
  });
});
