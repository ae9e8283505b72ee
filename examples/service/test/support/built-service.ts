// The service as its users start it: dist/main.js (built by the root `pnpm build`) in a process of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'main.js');

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts dist/main.js with `env` on a free port; resolves once it prints where it listens. */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  if (!existsSync(main))
    throw new Error(`${main} is missing: run "pnpm build" at the repository root first.`);
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited (code ${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]!);
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
