import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { decryptJson, type Envelope, encryptFileStream } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedFiles } from './helpers.js';

const KEY = 'large-upload-key';
const MiB = 2 ** 20;
// A generous bound: the point is that a 200 MiB upload (a ~360 MB envelope) does not end up in memory.
const MEMORY_BOUND = 300 * 1e6;

/** `size` random bytes in 1 MiB chunks, hashed on the way, generated on the fly and never kept. */
function randomFile(size: number) {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let sent = 0; sent < size; sent += MiB) {
      const chunk = randomBytes(Math.min(MiB, size - sent));
      hash.update(chunk);
      yield chunk;
    }
  }
  return { chunks: chunks(), digest: () => hash.digest('hex') };
}

/** Flips one bit of the envelope once `at` bytes have passed: inside the ciphertext for any large file. */
function flipBitAt(at: number) {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (passed <= at && at < passed + chunk.length) {
        const copy = Buffer.from(chunk);
        const index = at - passed;
        // Stay inside the base64url alphabet: swap between two letters.
        copy[index] = copy[index] === 0x41 ? 0x42 : 0x41;
        chunk = copy;
      }
      passed += chunk.length;
      done(null, chunk);
    },
  });
}

function upload(port: number, body: Readable): Promise<{ status: number; json: Envelope }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/upload',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', 'transfer-encoding': 'chunked' },
    });
    req.on('response', async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) });
    });
    req.on('error', reject);
    body.pipe(req);
  });
}

describe.each(['express', 'express4'])(
  'a large encrypted upload to disk (%s, server in a child process)',
  (flavour) => {
    let server: ChildProcess;
    let port: number;
    let dest: string;

    beforeAll(async () => {
      dest = await mkdtemp(join(tmpdir(), 'jwe-large-upload-'));
      server = spawn(
        process.execPath,
        [join(import.meta.dirname, 'fixtures/upload-server.mjs'), flavour, dest],
        {
          env: { ...process.env, UPLOAD_KEY: KEY },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      const [line] = (await once(server.stdout!, 'data')) as [Buffer];
      port = JSON.parse(line.toString()).port;
    });
    afterAll(async () => {
      server.kill('SIGTERM');
      await once(server, 'exit');
      await rm(dest, { recursive: true, force: true });
    });

    it('stores 200 MiB intact while the server process stays under 300 MB of memory', async () => {
      const size = 200 * MiB;
      const file = randomFile(size);
      const envelope = Readable.fromWeb(encryptFileStream(file.chunks, KEY, { kid: 'big' }) as never);
      const { status, json } = await upload(port, envelope);

      expect(status).toBe(200);
      const answer = await decryptJson<{ size: number; sha256: string; maxRssBytes: number }>(json, KEY);
      expect(answer.size).toBe(size);
      expect(answer.sha256).toBe(file.digest());
      expect(answer.maxRssBytes).toBeLessThan(MEMORY_BOUND);
      console.log(`${flavour}: 200 MiB upload, server peak RSS ${(answer.maxRssBytes / 1e6).toFixed(0)} MB`);
      expect(await storedFiles(dest)).toHaveLength(1);
    });

    it('leaves no file behind when a large upload is tampered with', async () => {
      for (const name of await storedFiles(dest))
        await rm(join(dest, name), { force: true, recursive: true });
      const file = randomFile(64 * MiB);
      const envelope = Readable.fromWeb(encryptFileStream(file.chunks, KEY, { kid: 'big' }) as never).pipe(
        flipBitAt(40 * MiB),
      );
      const { status, json } = await upload(port, envelope);

      expect(status).toBe(400);
      // Never authenticated, so the error is answered in plain JSON.
      expect(json).toMatchObject({
        error: { type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' },
      });
      expect(await storedFiles(dest)).toEqual([]);
    });
  },
);
