import { fileURLToPath } from 'node:url';
import { bundleForBrowser, NODE_IMPORT } from '@jwe-transport/test-support/client/browser-bundle';
import { describe, expect, it } from 'vitest';

describe('the published build, bundled for a browser', () => {
  it('resolves the browser build, without the Node-only transcription helpers or any Node built-in', async () => {
    const bundle = await bundleForBrowser(
      '@jwe-transport/ky-plugin',
      fileURLToPath(new URL('..', import.meta.url)),
    );
    expect(bundle.errors).toEqual([]);
    expect(bundle.inputs.some((path) => path.endsWith('ky-plugin/dist/index.browser.js'))).toBe(true);
    expect(bundle.inputs.some((path) => path.endsWith('client-core/dist/adapter.js'))).toBe(true);
    expect(bundle.inputs.some((path) => path.endsWith('codec/dist/index.js'))).toBe(true);
    expect(bundle.inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(bundle.code).not.toMatch(NODE_IMPORT);
    expect(bundle.code).toContain('x-jwe-decrypted');
  });
});
