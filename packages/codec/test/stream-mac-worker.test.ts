import { Buffer } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as codec from '../src/index.node.js';
import { macWorkerJobCount, macWorkerState, warmMacWorker } from '../src/stream/mac-lane.js';
import { expectJweError } from './support/errors.js';
import { bytesFrom, collect, memorySink } from './support/streams.js';

const KEY = 'mac-worker-k16!!';
const IV = new Uint8Array(16).fill(7);
const MiB = 1024 * 1024;

async function* inPieces(bytes: Uint8Array, size = 100_000): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Encrypts with the worker if it is free: same IV, so the result must equal the one-shot envelope. */
async function sealFile(file: Uint8Array): Promise<Buffer> {
  return collect(codec.encryptFileStream(inPieces(file), KEY, { kid: 'k', unsafeFixedIv: IV }));
}

describe('the stream MAC worker', () => {
  beforeAll(async () => {
    // A stream takes the worker only once it is up; start it and wait, as a long-running process would have.
    warmMacWorker();
    for (let waited = 0; macWorkerState() !== 'free' && waited < 10_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('MACs a stream past its first MiB, with the same envelope as the one-shot encryptFile', async () => {
    const file = bytesFrom(1, 3 * MiB + 11);
    const before = macWorkerJobCount();
    const streamed = await sealFile(file);
    expect(macWorkerJobCount()).toBe(before + 1);
    const oneShot = JSON.stringify(await codec.encryptFile(file, KEY, { kid: 'k', unsafeFixedIv: IV }));
    expect(streamed.toString('latin1')).toBe(oneShot);
  });

  it('leaves streams under a MiB on their own thread', async () => {
    const before = macWorkerJobCount();
    const file = bytesFrom(2, 700 * 1024);
    const streamed = await sealFile(file);
    expect(macWorkerJobCount()).toBe(before);
    expect(Buffer.from(await codec.decryptFile(streamed, KEY)).equals(file)).toBe(true);
  });

  it('decrypts on it: the file comes back, and the worker is free again after', async () => {
    const file = bytesFrom(3, 4 * MiB);
    const envelope = JSON.stringify(await codec.encryptFile(file, KEY));
    for (let round = 0; round < 2; round++) {
      const before = macWorkerJobCount();
      const sink = memorySink();
      await codec.decryptFileStream(inPieces(Buffer.from(envelope)), KEY, { to: sink.stream });
      expect(macWorkerJobCount()).toBe(before + 1);
      expect(sink.bytes().equals(file)).toBe(true);
    }
  });

  it('serves one stream at a time: a second stream at the same time MACs on its own thread', async () => {
    const files = [bytesFrom(4, 3 * MiB), bytesFrom(5, 3 * MiB + 5)];
    const before = macWorkerJobCount();
    const envelopes = await Promise.all(files.map(sealFile));
    expect(macWorkerJobCount()).toBe(before + 1);
    for (const [i, envelope] of envelopes.entries()) {
      expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(files[i]!)).toBe(true);
    }
  });

  it('rejects a tampered stream as ERR_JWE_DECRYPTION_FAILED and then serves the next stream', async () => {
    const file = bytesFrom(6, 3 * MiB);
    const envelope = Buffer.from(JSON.stringify(await codec.encryptFile(file, KEY)));
    const at = envelope.indexOf('"ciphertext":"') + 14 + 2 * MiB;
    envelope[at] = envelope[at] === 0x41 ? 0x42 : 0x41;
    const before = macWorkerJobCount();
    await expectJweError(
      () => codec.decryptFileStream(inPieces(envelope), KEY, { to: memorySink().stream }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    expect(macWorkerJobCount()).toBe(before + 1);
    await sealFile(file);
    expect(macWorkerJobCount()).toBe(before + 2);
  });

  it('is given back by a stream cancelled half-way', async () => {
    const before = macWorkerJobCount();
    const reader = codec.encryptFileStream(inPieces(bytesFrom(7, 8 * MiB)), KEY).getReader();
    for (let read = 0; read < 3 * MiB; ) read += (await reader.read()).value!.length;
    expect(macWorkerJobCount()).toBe(before + 1);
    await reader.cancel();
    await sealFile(bytesFrom(8, 2 * MiB));
    expect(macWorkerJobCount()).toBe(before + 2);
  });

  it('is given back by a stream that was dropped unfinished, once it is garbage-collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const before = macWorkerJobCount();
    await (async () => {
      const reader = codec.encryptFileStream(inPieces(bytesFrom(9, 8 * MiB)), KEY).getReader();
      for (let read = 0; read < 3 * MiB; ) read += (await reader.read()).value!.length;
    })();
    expect(macWorkerJobCount()).toBe(before + 1);
    // The registry's callback runs some time after a collection: retry for a while.
    for (let attempt = 0; attempt < 50 && macWorkerJobCount() === before + 1; attempt++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
      await sealFile(bytesFrom(10, 2 * MiB));
    }
    expect(macWorkerJobCount()).toBeGreaterThan(before + 1);
  });

  it('runs in a process started with --input-type=module, keeps it alive while it waits, and lets it exit', async () => {
    // Eval'd workers inherit --input-type=module (no require there). The process's only pending
    // work at the end is the wait for the worker's digest: it must neither exit early nor hang.
    const dist = new URL('../dist/index.node.js', import.meta.url);
    const script = `
      const codec = await import(${JSON.stringify(dist.href)});
      const { readdirSync } = await import('node:fs');
      const threads = () => readdirSync('/proc/self/task').length;
      const collect = async (stream) => { const parts = []; for await (const part of stream) parts.push(part); return Buffer.concat(parts); };
      const before = threads();
      await collect(codec.encryptFileStream([new Uint8Array(10)], ${JSON.stringify(KEY)}));
      await new Promise((resolve) => setTimeout(resolve, 100));
      const afterSmall = threads() - before; // a small stream never starts the worker
      await collect(codec.encryptFileStream([new Uint8Array(400_000)], ${JSON.stringify(KEY)}));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const workers = threads() - before; // before the next stream, which would start another
      const file = new Uint8Array(6 * 1024 * 1024).map((_, i) => (i * 31) & 255);
      async function* source() { for (let at = 0; at < file.length; at += 65536) yield file.subarray(at, at + 65536); }
      const envelope = await collect(codec.encryptFileStream(source(), ${JSON.stringify(KEY)}));
      process.stdout.write(JSON.stringify({ afterSmall, workers, envelope: envelope.toString('latin1') }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
      maxBuffer: 64 * MiB,
      cwd: fileURLToPath(new URL('.', import.meta.url)),
    });
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    const { afterSmall, workers, envelope } = JSON.parse(run.stdout) as {
      afterSmall: number;
      workers: number;
      envelope: string;
    };
    expect(afterSmall).toBe(0);
    expect(workers).toBe(1);
    const file = new Uint8Array(6 * MiB).map((_, i) => (i * 31) & 255);
    expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(Buffer.from(file))).toBe(true);
  });
});
