import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** A server script run as its own process: it prints `{"port": n}` on its first stdout line. */
export interface ChildServer {
  url: string;
  /** What it wrote after that line. */
  output(): { stdout: string; stderr: string };
  /** Resolves once `test` holds for what it wrote (checked on each write). */
  until(test: () => boolean): Promise<void>;
  /** Stops it; resolves once its output streams closed, so `output()` is then complete. */
  stop(): Promise<void>;
}

/** Starts `script` with `env` added, for tests that read what a server writes by default. */
export async function startChildServer(
  script: string,
  env: Record<string, string> = {},
): Promise<ChildServer> {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const { port } = JSON.parse(line.toString()) as { port: number };
  let stdout = '';
  let stderr = '';
  let waiting: Array<{ test: () => boolean; resolve: () => void }> = [];
  const check = () => {
    waiting = waiting.filter((wait) => {
      if (!wait.test()) return true;
      wait.resolve();
      return false;
    });
  };
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk;
    check();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk;
    check();
  });
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => ({ stdout, stderr }),
    until: (test) =>
      new Promise<void>((resolve) => {
        waiting.push({ test, resolve });
        check();
      }),
    stop: async () => {
      const closed = once(child, 'close');
      child.kill('SIGTERM');
      await closed;
    },
  };
}
