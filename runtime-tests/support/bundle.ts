import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import webpack from 'webpack';

export type Bundler = 'esbuild' | 'webpack';
export const BUNDLERS: readonly Bundler[] = ['esbuild', 'webpack'];

/** A page bundle on disk: `dir` holds `index.html` and the scripts it loads. */
export interface PageBundle {
  dir: string;
}

/**
 * Bundles `entry` for the browser into `outDir` with nothing external: packages resolve through
 * their `exports` with the `browser` condition, as an application's bundler would resolve them from
 * npm. A module that imports a Node built-in makes the build fail, which is the point.
 */
export async function bundleForBrowser(bundler: Bundler, entry: string, outDir: string): Promise<PageBundle> {
  await mkdir(outDir, { recursive: true });
  const moduleScript = bundler === 'esbuild';
  if (bundler === 'esbuild') await bundleWithEsbuild(entry, outDir);
  else await bundleWithWebpack(entry, outDir);
  const script = `<script ${moduleScript ? 'type="module" ' : ''}src="bundle.js"></script>`;
  await writeFile(
    join(outDir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>jwe</title>${script}\n`,
  );
  return { dir: outDir };
}

async function bundleWithEsbuild(entry: string, outDir: string): Promise<void> {
  // Rejects with esbuild's messages (for example `Could not resolve "node:http"`) on any error.
  await esbuild.build({
    entryPoints: [entry],
    outfile: join(outDir, 'bundle.js'),
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    logLevel: 'silent',
  });
}

function bundleWithWebpack(entry: string, outDir: string): Promise<void> {
  const compiler = webpack({
    mode: 'production',
    target: 'web',
    entry,
    output: { path: outDir, filename: 'bundle.js', publicPath: 'auto' },
    devtool: false,
    // Minifying costs seconds and proves nothing about resolution.
    optimization: { minimize: false },
    performance: { hints: false },
    infrastructureLogging: { level: 'error' },
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => {
        if (error) reject(error);
        else if (stats?.hasErrors())
          reject(new Error(stats.toString({ all: false, errors: true, errorDetails: false })));
        else resolve();
      });
    });
  });
}
