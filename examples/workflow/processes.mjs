// Child processes of the example: the reference service and the webhook receiver, each started
// on a free port and resolved once it says where it listens.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

function started(child, stream, pattern, what, log) {
  return new Promise((resolve, reject) => {
    const onExit = (code) => reject(new Error(`${what} exited (code ${code}) before listening.`));
    child.once('error', reject);
    child.once('exit', onExit);
    createInterface({ input: stream }).on('line', (line) => {
      log(line);
      const match = pattern.exec(line);
      if (match) {
        child.off('exit', onExit);
        resolve(match[1]);
      }
    });
  });
}

function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** The reference service (examples/service, built) with `env`; resolves `{ url, stop }`. */
export async function startReferenceService(env, { log = () => {} } = {}) {
  const main = join(require.resolve('@jwe-transport/example-service/package.json'), '..', 'dist', 'main.js');
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await started(
      child,
      child.stdout,
      /listening on (http:\/\/\S+)/,
      'The reference service',
      log,
    );
    return { url, stop: stopper(child) };
  } catch (error) {
    throw new Error(
      `${error.message} Run "pnpm build" at the repository root, then "pnpm --dir examples/service build".`,
    );
  }
}

/**
 * `receiver.mjs` as its own process; resolves `{ url, events, nextEvent(txn), stop }` where
 * `events` collects the JSON lines it prints.
 */
export async function startReceiverProcess(env, { log = () => {} } = {}) {
  const child = spawn(process.execPath, [join(here, 'receiver.mjs')], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const events = [];
  const waiting = new Set();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const event = JSON.parse(line);
    events.push(event);
    for (const waiter of waiting) waiter(event);
  });
  const url = await started(child, child.stderr, /listening on (http:\/\/\S+)/, 'The webhook receiver', log);
  return {
    url,
    events,
    /** The first event line for `transactionId` (already printed, or the next one). */
    event(transactionId) {
      const seen = events.find((event) => event.transaction_id === transactionId);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const onExit = () =>
          reject(new Error('The webhook receiver exited before the notification arrived.'));
        const waiter = (event) => {
          if (event.transaction_id !== transactionId) return;
          waiting.delete(waiter);
          child.off('exit', onExit);
          resolve(event);
        };
        waiting.add(waiter);
        child.once('exit', onExit);
      });
    },
    stop: stopper(child),
  };
}
