import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as codec from '../src/index.node.js';
import { parallelWorker } from '../src/parallel/node.js';
import { streamMacStats } from '../src/parallel/stream-mac.js';
import { b64u, fromB64u } from './support/bytes.js';
import { expectJweError } from './support/errors.js';
import { joseNpmDecrypt } from './support/peers.js';

/*
 * Streams over 1 MiB of ciphertext MAC on the codec's helper worker (parallel/stream-mac.ts).
 * The results must be the one-shot codec's, byte for byte, whether the worker is up from the
 * start, starts while the stream runs, or is not there at all.
 */

const KEY = 'str34m-p4r-k3y16';
const IV = Uint8Array.from({ length: 16 }, (_, i) => 200 - i);

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** 64 KiB chunks, as Node's file streams deliver them. */
function* chunked(bytes: Uint8Array, size = 64 * 1024): Generator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function collector() {
  const chunks: Uint8Array[] = [];
  let aborted = false;
  const to = new WritableStream<Uint8Array>({
    write: (chunk) => void chunks.push(Buffer.from(chunk)),
    abort: () => {
      aborted = true;
    },
  });
  return { to, bytes: () => Buffer.concat(chunks), aborted: () => aborted };
}

async function workerUp(): Promise<void> {
  await codec.encrypt(new Uint8Array(300_000), KEY);
  const until = Date.now() + 10_000;
  while (!parallelWorker.ready && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  expect(parallelWorker.ready).toBe(true);
}

/** Runs `action` and returns how many ciphertext batches went to the worker meanwhile. */
async function batchesDuring(action: () => Promise<unknown>): Promise<number> {
  const before = streamMacStats.batches;
  await action();
  return streamMacStats.batches - before;
}

describe('streams with their HMACs on the worker', () => {
  it.each([
    ['with the worker up', true],
    ['starting the worker on the way', false],
  ])('encryptFileStream and decryptFileStream of 9 MiB, %s: the one-shot bytes', async (_name, up) => {
    if (up) await workerUp();
    else await parallelWorker.stop();
    const file = randomBytes(9 * 1024 * 1024 + 5);
    let envelopeBytes: Buffer | undefined;
    const sealed = await batchesDuring(async () => {
      envelopeBytes = await readAll(
        codec.encryptFileStream(chunked(file), KEY, { unsafeFixedIv: IV, kid: 'k' }),
      );
    });
    expect(sealed).toBeGreaterThan(0);
    const oneShot = await codec.encryptFile(file, KEY, { unsafeFixedIv: IV, kid: 'k' });
    expect(envelopeBytes!.toString('latin1')).toBe(JSON.stringify(oneShot));

    const sink = collector();
    let result: Awaited<ReturnType<typeof codec.decryptFileStream>> | undefined;
    const opened = await batchesDuring(async () => {
      result = await codec.decryptFileStream(chunked(envelopeBytes!), KEY, { to: sink.to });
    });
    expect(opened).toBeGreaterThan(0);
    expect(result!.bytes).toBe(file.length);
    expect(sink.bytes().equals(file)).toBe(true);
  });

  it('raw streams, the spilled path with three AAD candidates, and npm jose', async () => {
    await workerUp();
    const plaintext = randomBytes(3 * 1024 * 1024 + 17);
    const envelope = JSON.parse(
      (await readAll(codec.encryptStream(chunked(plaintext), KEY))).toString('latin1'),
    );
    expect(Buffer.from(await joseNpmDecrypt(KEY, envelope)).equals(plaintext)).toBe(true);
    // No "protected": the ciphertext is spilled, then MACed under three candidates at once.
    const { protected: _p, ...bare } = await codec.encrypt(plaintext, KEY);
    const sink = collector();
    const result = await codec.decryptStream(chunked(Buffer.from(JSON.stringify(bare))), KEY, {
      to: sink.to,
    });
    expect(result.spilled).toBe(true);
    expect(result.headerSource).toBe('assumed-compact');
    expect(sink.bytes().equals(plaintext)).toBe(true);
  });

  it('small streams never involve the worker', async () => {
    await workerUp();
    const plaintext = randomBytes(200_000);
    const batches = await batchesDuring(async () => {
      const envelope = await readAll(codec.encryptStream(chunked(plaintext), KEY));
      const sink = collector();
      await codec.decryptStream(chunked(envelope), KEY, { to: sink.to });
      expect(sink.bytes().equals(plaintext)).toBe(true);
    });
    expect(batches).toBe(0);
  });

  it('a tampered large stream fails with the one decryption error and aborts the sink', async () => {
    await workerUp();
    const plaintext = randomBytes(4 * 1024 * 1024);
    const envelope = JSON.parse(
      (await readAll(codec.encryptStream(chunked(plaintext), KEY))).toString('latin1'),
    );
    const ciphertext = fromB64u(envelope.ciphertext);
    ciphertext[3_000_000]! ^= 4;
    const bad = Buffer.from(JSON.stringify({ ...envelope, ciphertext: b64u(ciphertext) }));
    const sink = collector();
    await expectJweError(
      () => codec.decryptStream(chunked(bad), KEY, { to: sink.to }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    expect(sink.aborted()).toBe(true);
  });

  it('concurrent streams and one-shot calls share the worker', async () => {
    await workerUp();
    const files = [5, 3, 2].map((mib) => randomBytes(mib * 1024 * 1024 + mib));
    const envelopes = await Promise.all(
      files.map((file) => readAll(codec.encryptFileStream(chunked(file), KEY))),
    );
    const sinks = files.map(() => collector());
    const [, , , oneShot] = await Promise.all([
      ...envelopes.map((envelope, i) =>
        codec.decryptFileStream(chunked(envelope), KEY, { to: sinks[i]!.to }),
      ),
      codec.decryptFile(JSON.parse(envelopes[1]!.toString('latin1')), KEY),
    ]);
    for (const [i, sink] of sinks.entries()) expect(sink.bytes().equals(files[i]!)).toBe(true);
    expect(Buffer.from(oneShot as Uint8Array).equals(files[1]!)).toBe(true);
  });

  it('a cancelled encryption stream lets go of its worker state', async () => {
    await workerUp();
    const stream = codec.encryptFileStream(chunked(randomBytes(6 * 1024 * 1024)), KEY);
    const reader = stream.getReader();
    for (let i = 0; i < 40; i++) await reader.read();
    await reader.cancel();
    expect(streamMacStats.open).toBe(0);
  });

  it('a worker that stops in the middle of a stream fails that stream, and the next one works', async () => {
    await workerUp();
    const file = randomBytes(8 * 1024 * 1024);
    const stream = codec.encryptFileStream(chunked(file), KEY);
    const reader = stream.getReader();
    for (let i = 0; i < 60; i++) await reader.read();
    await parallelWorker.stop();
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) break;
      })(),
    ).rejects.toThrow(/helper thread stopped/);
    const envelope = await readAll(codec.encryptFileStream(chunked(file), KEY));
    const sink = collector();
    await codec.decryptFileStream(chunked(envelope), KEY, { to: sink.to });
    expect(sink.bytes().equals(file)).toBe(true);
  });
});
