// A real redis-server (Debian's package) on a free port of 127.0.0.1, without persistence.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunningRedis {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
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

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startRedis(): Promise<RunningRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'notice',
    ],
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
  return { url: `redis://127.0.0.1:${port}`, stop: () => stopped(child) };
}
