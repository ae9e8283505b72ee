import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Deno and Bun, each from its npm package (devDependencies of runtime-tests). */
export type RuntimeName = 'deno' | 'bun';
export const RUNTIMES: readonly RuntimeName[] = ['deno', 'bun'];

export const root = fileURLToPath(new URL('..', import.meta.url));
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
  /** Deno only: folders the script may write to. */
  writable?: string[];
}

export function commandLine(runtime: RuntimeName, script: string, options: RunOptions): string[] {
  const condition = options.condition ? [`--conditions=${options.condition}`] : [];
  const args = options.args ?? [];
  if (runtime === 'bun') return [...condition, script, ...args];
  // Deno runs with the least it needs: reading files, and the loopback address when asked.
  const net = options.loopback ? ['--allow-net=127.0.0.1'] : [];
  const write = options.writable?.length ? [`--allow-write=${options.writable.join(',')}`] : [];
  return ['run', '--quiet', '--no-prompt', '--allow-read', ...net, ...write, ...condition, script, ...args];
}

/** A small environment: no update checks, no colour codes in what the test reads. */
export function runtimeEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? root,
    NO_COLOR: '1',
    DENO_NO_UPDATE_CHECK: '1',
  };
}

/**
 * Runs `script` (a path under runtime-tests/) with `runtime`, from the runtime-tests folder so that
 * packages resolve through its node_modules, and parses the JSON the script prints.
 */
export function runScript<T>(runtime: RuntimeName, script: string, options: RunOptions = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      BINARIES[runtime],
      commandLine(runtime, script, options),
      { cwd: root, env: runtimeEnv(), timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${runtime} ${script} failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as T);
      },
    );
  });
}

/** A server a runtime runs: where it listens, and how to stop it. */
export interface RuntimeServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts `script` under `runtime` as a server. The script prints `{"port": N}` once it listens on
 * 127.0.0.1 and exits when its standard input closes, which `stop()` does.
 */
export function startRuntimeServer(
  runtime: RuntimeName,
  script: string,
  options: RunOptions = {},
): Promise<RuntimeServer> {
  const child = spawn(BINARIES[runtime], commandLine(runtime, script, { ...options, loopback: true }), {
    cwd: root,
    env: runtimeEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin.end();
    await exited;
  };
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const { port } = JSON.parse(line) as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, stop });
    });
    child.once('exit', (code) =>
      reject(new Error(`${runtime} ${script} exited (${code}) before listening:\n${stderr}`)),
    );
    child.once('error', reject);
  });
}
