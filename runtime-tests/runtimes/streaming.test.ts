import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptFile, encryptFile } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, runScript } from '../support/runtimes.js';
import { OWN_BUILD } from './builds.js';

interface StreamRun {
  resolved: string;
  backend: string;
  streaming: boolean;
  envelopeBytes: number;
  bytes: number;
  kid: string | null;
  spilled: boolean;
}

const KEY = 'runtime-stream!!';
// A few MiB, not a multiple of any block or chunk size, so every partial path is crossed.
const FILE = randomBytes(3 * 2 ** 20 + 12_345);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jwe-runtime-stream-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(RUNTIMES)('streaming under %s, with the build it picks', (runtime) => {
  it('encryptFileStream to a file and decryptFileStream back give the same bytes', async () => {
    const build = OWN_BUILD[runtime];
    const paths = {
      file: join(dir, `${runtime}.bin`),
      envelope: join(dir, `${runtime}.jwe.json`),
      copy: join(dir, `${runtime}-copy.bin`),
    };
    await writeFile(paths.file, FILE);
    const run = await runScript<StreamRun>(runtime, 'runtimes/scripts/stream-file.mjs', {
      writable: [dir],
      args: [JSON.stringify({ ...paths, key: KEY, kid: `${runtime}-kid` })],
    });
    expect(run.resolved).toMatch(build.file);
    expect(run.backend).toBe(build.backend);
    expect(run.streaming).toBe(true);
    expect(run).toMatchObject({ bytes: FILE.length, kid: `${runtime}-kid`, spilled: false });

    const copy = await readFile(paths.copy);
    expect(copy.length).toBe(FILE.length);
    expect(sha256(copy)).toBe(sha256(FILE));
    // The streamed envelope is an ordinary one: Node's one-shot decryptFile reads it, and it has
    // the bytes and length of encryptFile's envelope for the same file.
    const envelope = await readFile(paths.envelope);
    expect((await stat(paths.envelope)).size).toBe(run.envelopeBytes);
    expect(sha256(await decryptFile(envelope, KEY))).toBe(sha256(FILE));
    expect(envelope.length).toBe(
      JSON.stringify(await encryptFile(FILE, KEY, { kid: `${runtime}-kid` })).length,
    );
  });
});
