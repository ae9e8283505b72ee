// The receiver as a newcomer runs it: through `pnpm --dir examples/workflow receiver` (stdout holds
// only its JSON lines), and with REDIS_URL pointing nowhere (one clear line, exit code 1).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const KEY = 'whsec-receiver-cli-0123';
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function run(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => void stdout.push(line));
  // The receiver's own pid: pnpm does not pass a signal on to the script it runs.
  const listening = new Promise<{ url: string; pid: number }>((resolve, reject) => {
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr.push(line);
      const match = /listening on (http:\/\/\S+) \(pid (\d+)\)/.exec(line);
      if (match) resolve({ url: match[1]!, pid: Number(match[2]) });
    });
    child.once('exit', () => reject(new Error(`exited before listening: ${stderr.join(' | ')}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, stdout, stderr, listening, exited };
}

it('`pnpm --dir examples/workflow receiver` prints only JSON lines on stdout', async () => {
  const receiver = run('pnpm', ['--dir', 'examples/workflow', 'receiver'], { SIGNING_KEY: KEY, PORT: '0' });
  const { url, pid } = await receiver.listening;
  try {
    const t = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({
      event: 'v2rx.completed',
      data: { transaction_id: 'txn-cli', status: 'completed', session_id: 'txn-cli' },
      timestamp: new Date().toISOString(),
    });
    const header = `t=${t},v1=${createHmac('sha256', KEY).update(`${t}.${body}`).digest('hex')}`;
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'eka-webhook-signature': header },
      body,
    });
    expect(answer.status).toBe(200);
    // A refusal is the receiver's own JSON, not an HTML error page.
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await refused.json()).error.code).toBe('ERR_WEBHOOK_SIGNATURE_MISSING');
  } finally {
    process.kill(pid, 'SIGTERM');
    await receiver.exited;
  }
  expect(receiver.stdout.length).toBeGreaterThan(0);
  expect(receiver.stdout.map((line) => JSON.parse(line))).toEqual([
    { event: 'v2rx.completed', transaction_id: 'txn-cli', status: 'completed' },
  ]);
});

it('with REDIS_URL pointing nowhere, exits 1 with one clear line and no unhandled client error', async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const receiver = run(process.execPath, [join(root, 'examples/workflow/receiver.mjs')], {
    SIGNING_KEY: KEY,
    PORT: '0',
    REDIS_URL: `redis://:secret-pw@127.0.0.1:${port}`,
  });
  receiver.listening.catch(() => {});
  expect(await receiver.exited).toBe(1);
  expect(receiver.stdout).toEqual([]);
  const stderr = receiver.stderr.join('\n');
  expect(stderr).toContain(`Redis at redis://127.0.0.1:${port} is unreachable (ECONNREFUSED`);
  expect(stderr).not.toMatch(/Unhandled error event|secret-pw|\n\s+at /);
});
