import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { encryptFile, encryptFileStream, PROTECTED_COMPACT } from '@jwe-transport/codec';
import { describe, expect, vi } from 'vitest';
import type { ConformanceAdapter } from './adapter.js';
import { base64urlFiller, firstBytes, flipLetterAt, generatedFile, withKidLast } from './data.js';
import { check, KEYS, LIMITS, MiB, useServer } from './servers.js';
import { joseOpenJson, postEncrypted, postWhole, rawPost, sha256, writeAll } from './wire.js';

const KEY = KEYS['kid-a'];
const JWE_HEADERS = { 'content-type': 'application/json', 'x-encryption': 'JWE' };
/** Client and server share this process: a 200 MiB file (a ~356 MB envelope) must not end up in it. */
const MEMORY_BOUND = 128 * MiB;

async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The file's envelope as the codec streams it: `kid` first, so a server with several keys can decrypt as it arrives (Node's Web streams are async iterable). */
const sealedStream = (chunks: AsyncIterable<Uint8Array>) =>
  encryptFileStream(chunks, KEY, { kid: 'kid-a' }) as unknown as AsyncIterable<Uint8Array>;
/** The same envelope with `kid` moved after `tag`, as other senders may write it: spilled until the kid arrives. */
const kidLastStream = (chunks: AsyncIterable<Uint8Array>) => withKidLast(sealedStream(chunks), 'kid-a');

/** The largest file whose envelope still fits in `limit` bytes (checked by the caller). */
const largestFileFor = (limit: number) => Math.floor(((limit - 200) * 9) / 16) - 64;

function streamUpload(url: string, chunks: AsyncIterable<Uint8Array>) {
  return rawPost(url, { ...JWE_HEADERS, 'transfer-encoding': 'chunked' }, (body, answered) =>
    writeAll(body, chunks, answered),
  );
}

export function uploadCases(adapter: ConformanceAdapter): void {
  const server = useServer(adapter, { keys: KEYS });
  const listing = async () => (await readdir(server.dest)).sort();

  check(adapter, 'in-memory uploads up to the limit', async () => {
    const largest = largestFileFor(LIMITS.memoryUpload);
    for (const size of [1, 1024, 4 * MiB, largest]) {
      const file = Buffer.alloc(size, size % 251);
      const envelope = JSON.stringify(await encryptFile(file, KEY, { kid: 'kid-a' }));
      expect(envelope.length).toBeLessThanOrEqual(LIMITS.memoryUpload);
      const response = await postEncrypted(`${server.url}/upload-memory`, envelope);
      expect({ size, status: response.status }).toEqual({ size, status: 200 });
      expect(await joseOpenJson(KEY, await response.json())).toEqual({ size, sha256: sha256(file) });
    }
    // The server may answer before reading the whole body, and close: the 413 is what counts.
    const over = await encryptFile(Buffer.alloc(largest + 64 * 1024), KEY, { kid: 'kid-a' });
    const refused = await postWhole(`${server.url}/upload-memory`, JSON.stringify(over));
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text)).toMatchObject({ error: { type: 'entity.too.large' } });
  });

  check(adapter, 'multipart upload', async () => {
    const file = Buffer.alloc(MiB + 3, 9);
    const form = new FormData();
    form.set('file', new Blob([file], { type: 'application/pdf' }), 'scan.pdf');
    const response = await fetch(`${server.url}/upload`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBeNull();
    const answer = (await response.json()) as { size: number; path: string };
    expect(answer.size).toBe(file.length);
    expect(await fileDigest(answer.path)).toBe(sha256(file));
  });

  check(
    adapter,
    '200 MiB upload in bounded memory',
    async () => {
      const baseline = process.memoryUsage.rss();
      let peak = baseline;
      const sample = () => {
        peak = Math.max(peak, process.memoryUsage.rss());
      };
      const file = generatedFile(200 * MiB, sample);
      const answer = await streamUpload(`${server.url}/upload`, sealedStream(file.chunks));
      sample();
      expect(answer.status).toBe(200);
      expect(answer.headers['x-encryption']).toBe('JWE');
      const stored = (await joseOpenJson(KEY, JSON.parse(answer.text))) as { size: number; path: string };
      expect(stored.size).toBe(200 * MiB);
      expect(await fileDigest(stored.path)).toBe(file.digest());
      expect(peak - baseline).toBeLessThan(MEMORY_BOUND);
    },
    120_000,
  );

  check(adapter, 'tampered upload leaves no file', async () => {
    const before = await listing();
    const file = generatedFile(16 * MiB);
    const envelope = sealedStream(file.chunks);
    const answer = await streamUpload(`${server.url}/upload`, flipLetterAt(envelope, 12 * MiB));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'jwe.decrypt.failed' } });
    expect(await listing()).toEqual(before);
  });

  check(adapter, 'aborted upload leaves no file', async () => {
    const before = await listing();
    const file = generatedFile(16 * MiB);
    const envelope = sealedStream(file.chunks);
    const sent = rawPost(
      `${server.url}/upload`,
      { ...JWE_HEADERS, 'transfer-encoding': 'chunked' },
      async (body, answered) => {
        await writeAll(body, firstBytes(envelope, 8 * MiB), answered);
        (body as unknown as { destroy(): void }).destroy();
      },
    );
    await expect(sent).rejects.toThrow();
    await vi.waitFor(async () => expect(await listing()).toEqual(before), { timeout: 10_000, interval: 50 });
    const after = await fetch(`${server.url}/hello`);
    expect(after.status).toBe(200);
  });

  describe('with a 4 MiB upload limit and the default spill cap', () => {
    const small = useServer(adapter, { keys: KEYS, upload: { limit: 4 * MiB, maxSpill: 4 * MiB } });
    check(adapter, 'upload over the limit leaves no file', async () => {
      // kid last, as other senders may write it: spilled to disk until the kid arrives, within the limit.
      const fits = generatedFile(2 * MiB);
      const stored = await streamUpload(`${small.url}/upload`, kidLastStream(fits.chunks));
      expect(stored.status).toBe(200);
      const { path } = (await joseOpenJson(KEY, JSON.parse(stored.text))) as { path: string };
      expect(await fileDigest(path)).toBe(fits.digest());
      const before = (await readdir(small.dest)).sort();
      const file = generatedFile(8 * MiB);
      const answer = await streamUpload(`${small.url}/upload`, sealedStream(file.chunks));
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'entity.too.large' } });
      await vi.waitFor(async () => expect((await readdir(small.dest)).sort()).toEqual(before), {
        timeout: 10_000,
        interval: 50,
      });
    });
  });

  /** An envelope that names its kid only after the ciphertext, whose request is left open after `tail`. */
  function kidLast(fillerBytes: number, tail: string) {
    let request: { destroy(): void } | undefined;
    const answer = rawPost(
      `${server.url}/upload`,
      { ...JWE_HEADERS, 'transfer-encoding': 'chunked' },
      async (body, answered) => {
        request = body as unknown as { destroy(): void };
        body.write(`{"protected":"${PROTECTED_COMPACT}","iv":"AAAAAAAAAAAAAAAAAAAAAA","ciphertext":"`);
        await writeAll(body, base64urlFiller(fillerBytes), answered);
        if (!answered()) body.write(tail);
      },
      { end: false },
    );
    return { answer, close: () => request?.destroy() };
  }

  check(adapter, 'unknown kid after ciphertext refused early', async () => {
    const upload = kidLast(512 * 1024, '","kid":"kid-z",');
    try {
      const answer = await upload.answer;
      expect(answer.answeredEarly).toBe(true);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({
        error: { type: 'jwe.kid.unknown', code: 'ERR_KEY_UNKNOWN' },
      });
    } finally {
      upload.close();
    }
  });

  check(adapter, 'spill capped by maxSpill', async () => {
    const before = await listing();
    const upload = kidLast(LIMITS.maxSpill * 8, '","kid":"kid-a",');
    try {
      const answer = await upload.answer;
      expect(answer.answeredEarly).toBe(true);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ error: { type: 'entity.too.large' } });
    } finally {
      upload.close();
    }
    await vi.waitFor(async () => expect(await listing()).toEqual(before), { timeout: 10_000, interval: 50 });
  });
}
