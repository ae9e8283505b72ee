// Starts the reference service (examples/service, built) as a child process on a free port.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);

/** Resolves with `{ url, stop }` once the service prints the address it listens on. */
export async function startReferenceService(env, { log = () => {} } = {}) {
  const packageJson = require.resolve('@jwe-transport/example-service/package.json');
  const main = join(packageJson, '..', 'dist', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(
        new Error(
          `The reference service exited (code ${code}) before listening: run "pnpm build" at the repository root first.`,
        ),
      ),
    );
    lines.on('line', (line) => {
      log(line);
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolve(match[1]);
    });
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop };
}
