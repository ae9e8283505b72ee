import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// esbuild as tsup (a root dev dependency) ships it: the bundler the browser suites use too.
const require = createRequire(import.meta.url);
const esbuild = createRequire(require.resolve('tsup'))('esbuild') as {
  build(options: Record<string, unknown>): Promise<{
    errors: unknown[];
    metafile: { inputs: Record<string, unknown> };
    outputFiles: { text: string }[];
  }>;
};
const packageDir = fileURLToPath(new URL('..', import.meta.url));

describe('the published axios interceptor, bundled for a browser with axios', () => {
  it('resolves the browser builds and imports no Node built-in', async () => {
    const result = await esbuild.build({
      stdin: {
        contents: "export * from '@jwe-transport/axios-interceptor'; export { default } from 'axios';",
        resolveDir: packageDir,
      },
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      logLevel: 'silent',
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((path) => path.endsWith('axios-interceptor/dist/index.js'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('axios-interceptor/dist/index.node.js'))).toBe(false);
    expect(inputs.some((path) => path.endsWith('client-core/dist/index.js'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('codec/dist/index.web.js'))).toBe(true);
    expect(inputs.some((path) => /axios\/lib\/adapters\/xhr\.js$/.test(path))).toBe(true);
    expect(inputs.filter((path) => path.startsWith('node:'))).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/from ['"](node:)?(fs|http|https|stream|net|zlib)['"]/);
  });
});
