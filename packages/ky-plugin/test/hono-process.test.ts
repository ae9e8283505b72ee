// The fetch wrapper and the ky plugin inside a process that serves a Hono app with
// @hono/node-server's default options, which replace the global Response (1.x keeps a fetch
// response's immutable headers in the Responses built from it). The replacement is process-wide,
// so each server major runs in a child process of its own (test/fixtures/hono-process.mjs).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const script = fileURLToPath(new URL('./fixtures/hono-process.mjs', import.meta.url));
const clients =
  Number(process.versions.node.split('.')[0]) >= 22 ? ['fetch', 'ky1', 'ky2'] : ['fetch', 'ky1'];

async function callsInHonoProcess(major: 1 | 2): Promise<Record<string, unknown>[]> {
  const { stdout } = await run(process.execPath, [script, String(major)], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
  });
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe.each([1, 2] as const)(
  'a client call inside a process serving with @hono/node-server %d.x defaults',
  (major) => {
    it('opens the encrypted answer with the fetch wrapper and the ky plugin', async () => {
      const calls = await callsInHonoProcess(major);
      expect(calls.map((call) => call.client)).toEqual(clients);
      for (const call of calls) {
        expect(call).toEqual({
          server: `@hono/node-server ${major}.x`,
          globalReplaced: true,
          client: call.client,
          ok: true,
          status: 200,
          decrypted: 'bff-test',
          wasDecrypted: true,
          cloneBody: { echo: { via: call.client } },
          body: { echo: { via: call.client } },
        });
      }
    });
  },
);
