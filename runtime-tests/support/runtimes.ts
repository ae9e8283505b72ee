import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Deno and Bun, each from its npm package (devDependencies of runtime-tests). */
export type RuntimeName = 'deno' | 'bun';
export const RUNTIMES: readonly RuntimeName[] = ['deno', 'bun'];

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The binaries the packages' install scripts put in place (no download: they ship in npm packages). */
export const BINARIES: Record<RuntimeName, string> = {
  deno: join(packageDir('deno'), 'deno'),
  bun: join(packageDir('bun'), 'bin', 'bun.exe'),
};

export interface RunOptions {
  /** An extra export condition, such as `browser`, to resolve packages with. */
  condition?: string | undefined;
  /** Deno only: whether the script may connect to 127.0.0.1. */
  loopback?: boolean;
  args?: string[];
}

function commandLine(runtime: RuntimeName, script: string, options: RunOptions): string[] {
  const condition = options.condition ? [`--conditions=${options.condition}`] : [];
  const args = options.args ?? [];
  if (runtime === 'bun') return [...condition, script, ...args];
  // Deno runs with the least it needs: reading files, and the loopback address when asked.
  const net = options.loopback ? ['--allow-net=127.0.0.1'] : [];
  return ['run', '--quiet', '--no-prompt', '--allow-read', ...net, ...condition, script, ...args];
}

/**
 * Runs `script` (a path under runtime-tests/) with `runtime`, from the runtime-tests folder so that
 * packages resolve through its node_modules, and parses the JSON the script prints.
 */
export function runScript<T>(runtime: RuntimeName, script: string, options: RunOptions = {}): Promise<T> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? root,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
  };
  return new Promise((resolve, reject) => {
    execFile(
      BINARIES[runtime],
      commandLine(runtime, script, options),
      { cwd: root, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${runtime} ${script} failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as T);
      },
    );
  });
}
