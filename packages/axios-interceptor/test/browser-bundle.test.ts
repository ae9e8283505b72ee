import { fileURLToPath } from 'node:url';
import { bundleForBrowser, NODE_IMPORT } from '@jwe-transport/test-support/client/browser-bundle';
import { describe, expect, it } from 'vitest';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the published axios interceptor, bundled for a browser', () => {
  it('resolves the browser builds and imports no Node built-in', async () => {
    const { errors, inputs, code } = await bundleForBrowser('@jwe-transport/axios-interceptor', packageDir);
    expect(errors).toEqual([]);
    expect(inputs.some((path) => path.endsWith('axios-interceptor/dist/index.js'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('axios-interceptor/dist/index.node.js'))).toBe(false);
    expect(inputs.some((path) => path.endsWith('client-core/dist/adapter.js'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('codec/dist/index.js'))).toBe(true);
    expect(inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(NODE_IMPORT);
  });

  it('bundles with axios itself, which resolves to its XHR and fetch adapters', async () => {
    const { errors, inputs, code } = await bundleForBrowser('axios', packageDir);
    expect(errors).toEqual([]);
    expect(inputs.some((path) => /axios\/lib\/adapters\/xhr\.js$/.test(path))).toBe(true);
    expect(inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(code).not.toMatch(NODE_IMPORT);
  });
});
