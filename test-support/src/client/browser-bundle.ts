// Bundles a package as a browser app would, with esbuild (shipped with tsup, a root dev
// dependency, and what the browser suites use too).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const esbuild = createRequire(require.resolve('tsup'))('esbuild') as {
  build(options: Record<string, unknown>): Promise<{
    errors: unknown[];
    metafile: { inputs: Record<string, unknown> };
    outputFiles: { text: string }[];
  }>;
};

/** Bundles `export * from '<specifier>'` for a browser; returns the files it read and the code. */
export async function bundleForBrowser(specifier: string, resolveDir: string) {
  const result = await esbuild.build({
    stdin: { contents: `export * from '${specifier}';`, resolveDir },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
    metafile: true,
  });
  return {
    errors: result.errors,
    inputs: Object.keys(result.metafile.inputs),
    code: result.outputFiles[0]!.text,
  };
}

/** Node built-ins a browser bundle must not reach. */
export const NODE_IMPORT = /from ['"](node:)?(fs|http|https|stream|net)['"]/;
