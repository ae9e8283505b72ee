// A Node child process whose stdout and stderr lines are collected as they arrive.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  pid: number;
  stdout: string[];
  stderr: string[];
  /** Resolves with the first stdout line matching `pattern` (already printed, or the next one). */
  line(pattern: RegExp): Promise<string>;
  /** SIGTERM, resolved once the process has exited and its output is complete. */
  stop(): Promise<void>;
}

export function startChild(script: string, env: Record<string, string>): Child {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  const waiters = new Set<(line: string) => void>();
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    stdout.push(line);
    for (const waiter of waiters) waiter(line);
  });
  createInterface({ input: child.stderr }).on('line', (line) => void stderr.push(line));
  return {
    pid: child.pid ?? 0,
    stdout,
    stderr,
    line: (pattern) => {
      const seen = stdout.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = (line: string) => {
          if (!pattern.test(line)) return;
          waiters.delete(waiter);
          resolve(line);
        };
        waiters.add(waiter);
        closed.then(() =>
          reject(new Error(`${script} exited before printing ${pattern}: ${stderr.slice(-5).join(' | ')}`)),
        );
      });
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await closed;
    },
  };
}
