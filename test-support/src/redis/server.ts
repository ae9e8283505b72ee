// A real redis-server (Debian's package) on 127.0.0.1: without persistence by default, or with an
// append-only file in `dir`; it can be killed and started again on the same port and directory.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RedisServerOptions {
  /** Default: a free port. */
  port?: number;
  /** With `dir`: `appendonly yes` and `appendfsync always` there, so an acknowledged write survives a kill. */
  dir?: string;
}

export interface RunningRedis {
  url: string;
  port: number;
  /** SIGTERM by default; SIGKILL for a crash. Resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export async function startRedis(options: RedisServerOptions = {}): Promise<RunningRedis> {
  const port = options.port ?? (await freePort());
  const persistence = options.dir
    ? ['--dir', options.dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '']
    : ['--save', '', '--appendonly', 'no'];
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', ...persistence, '--loglevel', 'notice'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.once('error', (error) =>
      reject(new Error(`redis-server could not start (${error.message}): apt-get install -y redis-server`)),
    );
    child.once('exit', (code) =>
      reject(new Error(`redis-server exited with ${code}: ${output.slice(-500)}`)),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: (signal = 'SIGTERM') => stopped(child, signal),
  };
}
