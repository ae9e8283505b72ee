// A Node child process driven by lines: stdin commands in, stdout lines out.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Child {
  pid: number;
  /** Every stdout line so far. */
  lines: string[];
  /** The next stdout line not yet taken. */
  next(): Promise<string>;
  send(line: string): void;
  /** Ends the process (SIGTERM, or closing stdin) and resolves once its output is complete. */
  stop(): Promise<void>;
}

export function startChild(script: string, env: Record<string, string>, args: string[] = []): Child {
  const child = spawn(process.execPath, [...args, script], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    const taker = waiting.shift();
    if (taker) taker(line);
    else queue.push(line);
  });
  return {
    pid: child.pid ?? 0,
    lines,
    next: () => {
      const line = queue.shift();
      if (line !== undefined) return Promise.resolve(line);
      return new Promise((resolve, reject) => {
        waiting.push(resolve);
        closed.then(() => reject(new Error(`${script} exited before printing the expected line`)));
      });
    },
    send: (line) => child.stdin.write(`${line}\n`),
    stop: async () => {
      child.stdin.end();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await closed;
    },
  };
}
