import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompactEncrypt, FlattenedEncrypt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeBackend } from '../src/backend/node.js';
import { bindCodec } from '../src/codec.js';
import * as codec from '../src/index.node.js';
import { deriveKey } from '../src/key.js';
import { parallelCrypto, parallelWorker, SPLIT } from '../src/parallel/node.js';
import { b64u, flipBit, fromB64u } from './support/bytes.js';
import { expectJweError, failureOf } from './support/errors.js';
import { twoThreadSpies } from './support/parallel-spies.js';
import { joseNpmDecrypt } from './support/peers.js';

/*
 * Large one-shot envelopes take the two-thread path (parallel/node.ts) once its worker is up.
 * Every result here is checked against the one-thread codec (the same code without the helper)
 * and against npm jose; each test also checks that the worker really was given the job.
 */

const KEY = 'p4r4llel-k3y-016';
const OTHER_KEY = 'an0ther-k3y-0000';
const IV = Uint8Array.from({ length: 16 }, (_, i) => i * 11);
const single = bindCodec(nodeBackend);

/** File sizes whose `{"file":"<base64>"}` payload is just below, at and above the seal threshold. */
const payloadSize = (fileBytes: number) => 4 * Math.ceil(fileBytes / 3) + 11;
const SEAL_FROM = parallelCrypto.sealFrom;
const AT_THRESHOLD = Math.ceil(((SEAL_FROM - 11) / 4) * 3);
const FILE_SIZES = [
  AT_THRESHOLD - 3,
  AT_THRESHOLD - 1,
  AT_THRESHOLD,
  AT_THRESHOLD + 1,
  AT_THRESHOLD + 2,
  AT_THRESHOLD + 3,
  1024 * 1024,
  3 * 1024 * 1024 + 7,
];
const RAW_SIZES = [SEAL_FROM - 1, SEAL_FROM, SEAL_FROM + 1, SEAL_FROM + 16, 2 * 1024 * 1024 + 5];

async function workerUp(): Promise<void> {
  if (parallelWorker.ready) return;
  await codec.encrypt(new Uint8Array(SEAL_FROM), KEY); // the first large call starts the worker
  const until = Date.now() + 10_000;
  while (!parallelWorker.ready && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  expect(parallelWorker.ready).toBe(true);
}

/** Runs `action` and returns how many jobs the worker was given meanwhile. */
async function jobsDuring(action: () => Promise<unknown>): Promise<number> {
  const before = parallelWorker.jobs;
  await action();
  return parallelWorker.jobs - before;
}

const joseEncrypt = async (plaintext: Uint8Array, header: Record<string, unknown> = {}) =>
  codec.parseEnvelope({
    ...(await new FlattenedEncrypt(plaintext)
      .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256', ...header })
      .encrypt(deriveKey(KEY))),
  });
const filePayload = (file: Uint8Array) =>
  new TextEncoder().encode(JSON.stringify({ file: Buffer.from(file).toString('base64') }));

/** Deep equality on megabyte buffers is slow in vitest: compare the bytes with Buffer.equals. */
async function expectSameDetails(
  actual: Promise<codec.DecryptResult>,
  expected: Promise<codec.DecryptResult>,
) {
  const { plaintext: a, ...restA } = await actual;
  const { plaintext: b, ...restB } = await expected;
  expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  expect(restA).toEqual(restB);
}

beforeAll(workerUp);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('large one-shot envelopes on two threads', () => {
  it.each(FILE_SIZES)('encryptFile/decryptFile of %d bytes: same as one thread and as jose', async (size) => {
    const file = randomBytes(size);
    let ours: Awaited<ReturnType<typeof codec.encryptFile>> | undefined;
    const sealJobs = await jobsDuring(async () => {
      ours = await codec.encryptFile(file, KEY, { unsafeFixedIv: IV, kid: 'k1' });
    });
    expect(sealJobs).toBe(payloadSize(size) >= SEAL_FROM ? 1 : 0);
    expect(ours).toEqual(await single.encryptFile(file, KEY, { unsafeFixedIv: IV, kid: 'k1' }));
    const { kid: _kid, ...flattened } = ours!;
    expect(Buffer.from(await joseNpmDecrypt(KEY, flattened)).equals(Buffer.from(filePayload(file)))).toBe(
      true,
    );

    const fromJose = await joseEncrypt(filePayload(file));
    for (const envelope of [ours!, fromJose]) {
      let back: Uint8Array | undefined;
      const openJobs = await jobsDuring(async () => {
        back = await codec.decryptFile(envelope, KEY);
      });
      expect(openJobs).toBe(envelope.ciphertext.length >= parallelCrypto.openFrom ? 1 : 0);
      expect(Buffer.from(back!).equals(file)).toBe(true);
      expect(back!.buffer).toBeInstanceOf(ArrayBuffer);
      expect(Buffer.from((await single.decryptFile(envelope, KEY)) as Uint8Array).equals(file)).toBe(true);
    }
  });

  it.each(RAW_SIZES)(
    'encrypt/decrypt/decryptDetailed of %d raw bytes, flattened and compact',
    async (size) => {
      const plaintext = randomBytes(size);
      const ours = await codec.encrypt(plaintext, KEY, { unsafeFixedIv: IV });
      expect(ours).toEqual(await single.encrypt(plaintext, KEY, { unsafeFixedIv: IV }));
      expect(Buffer.from(await joseNpmDecrypt(KEY, ours)).equals(plaintext)).toBe(true);
      const compact = await new CompactEncrypt(plaintext)
        .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
        .encrypt(deriveKey(KEY));
      for (const input of [ours, codec.toCompact(ours), compact, JSON.stringify(ours)]) {
        const back = await codec.decrypt(input, KEY);
        expect(Buffer.from(back).equals(plaintext)).toBe(true);
        expect(back.buffer).toBeInstanceOf(ArrayBuffer);
        await expectSameDetails(codec.decryptDetailed(input, KEY), single.decryptDetailed(input, KEY));
      }
    },
  );

  it('a file payload in another JSON spelling, or not a file payload at all, reads as on one thread', async () => {
    const file = randomBytes(600_000);
    const b64 = Buffer.from(file).toString('base64');
    const spellings = [
      `{"file": "${b64}"}`,
      `{"file":"${b64.replace(/\+/g, '\\u002B')}"}`,
      ` {"file":"${b64}"}`,
    ];
    for (const text of spellings) {
      const envelope = await joseEncrypt(new TextEncoder().encode(text));
      expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(file)).toBe(true);
    }
    const broken = [
      `{"file":"${b64.slice(0, -4)}A==="}`, // misplaced padding
      `{"file":"${b64.slice(0, 300_000)}-${b64.slice(300_001)}"}`, // the other alphabet
      `{"file":"${b64.slice(0, 500_000)}\u00e9${b64.slice(500_001)}"}`, // not ASCII
      `{"file":"${b64}","x":1}`,
      `{"file":"${b64.slice(0, -1)}"}`, // bad length
      `[${JSON.stringify(b64)}]`,
    ];
    for (const text of broken) {
      const envelope = await joseEncrypt(new TextEncoder().encode(text));
      const expected = await failureOf(() => single.decryptFile(envelope, KEY));
      const actual = await failureOf(() => codec.decryptFile(envelope, KEY));
      expect(actual).toEqual(expected);
      expect((actual as Error).message).toBe((expected as Error).message);
    }
  });

  it('encryptFile of a view into a larger buffer encodes only the view', async () => {
    const backing = randomBytes(900_000);
    const file = new Uint8Array(backing.buffer, backing.byteOffset + 7, 800_001);
    const options = { unsafeFixedIv: IV };
    let ours: codec.Envelope | undefined;
    expect(await jobsDuring(async () => (ours = await codec.encryptFile(file, KEY, options)))).toBe(1);
    expect(ours).toEqual(await single.encryptFile(file, KEY, options));
    expect(Buffer.from(await codec.decryptFile(ours!, KEY)).equals(file)).toBe(true);
  });

  it('a stray character at any piece or half boundary reads as on one thread', async () => {
    // Each thread decrypts 32 KiB pieces and decodes a group that straddles two pieces on its
    // own; faults placed at those seams (and at the split between the threads) must be found.
    const file = randomBytes(700_000);
    const b64 = Buffer.from(file).toString('base64');
    const PIECE = 32 * 1024; // file-part.ts's piece size
    const blocks = Math.ceil((b64.length + 12) / 16);
    const splitText = Math.floor(blocks * SPLIT) * 16 - 9;
    const seams = [PIECE / 2 - 9, PIECE - 9, 2 * PIECE - 9, 10 * PIECE - 9, splitText, splitText + PIECE];
    const positions = seams.flatMap((seam) => [-2, -1, 0, 1, 2].map((d) => seam + d));
    for (const [i, at] of positions.entries()) {
      const stray = ['-', '=', '"', '_', '\u00e9'][i % 5]!;
      const text = `{"file":"${b64.slice(0, at)}${stray}${b64.slice(at + 1)}"}`;
      const envelope = await joseEncrypt(new TextEncoder().encode(text));
      const expected = await failureOf(() => single.decryptFile(envelope, KEY));
      expect(await jobsDuring(() => failureOf(() => codec.decryptFile(envelope, KEY)))).toBe(1);
      expect(await failureOf(() => codec.decryptFile(envelope, KEY))).toEqual(expected);
    }
    // And the same seams intact, for sizes whose base64 ends at every offset within a group.
    for (const size of [700_000, 700_001, 700_002]) {
      const bytes = randomBytes(size);
      const envelope = await joseEncrypt(filePayload(bytes));
      expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(bytes)).toBe(true);
    }
  });

  it('missing protected: one candidate runs on two threads, several fall back to one thread', async () => {
    const plaintext = randomBytes(800_000);
    const envelope = codec.parseEnvelope({
      ...(await new FlattenedEncrypt(plaintext)
        .setSharedUnprotectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
        .encrypt(deriveKey(KEY))),
    });
    for (const missingProtected of ['rfc', 'infer'] as const) {
      const detailed = codec.decryptDetailed(envelope, KEY, { missingProtected });
      await expectSameDetails(detailed, single.decryptDetailed(envelope, KEY, { missingProtected }));
      expect(Buffer.from((await detailed).plaintext).equals(plaintext)).toBe(true);
    }
  });

  it('key resolvers and their errors, after the ciphertext is checked', async () => {
    const file = randomBytes(500_000);
    const envelope = await codec.encryptFile(file, KEY, { kid: 'a' });
    const keys = codec.keyring({ a: KEY });
    expect(Buffer.from(await codec.decryptFile(envelope, keys)).equals(file)).toBe(true);
    await expectJweError(() => codec.decryptFile({ ...envelope, kid: 'b' }, keys), 'ERR_KEY_UNKNOWN');
    const badCiphertext = { ...envelope, kid: 'b', ciphertext: `${envelope.ciphertext.slice(0, -2)}+A` };
    await expectJweError(() => codec.decryptFile(badCiphertext, keys), 'ERR_JWE_INVALID');
    const badTag = { ...envelope, ciphertext: `${envelope.ciphertext.slice(0, -2)}+A`, tag: '***' };
    const expected = await failureOf(() => single.decryptFile(badTag, KEY));
    expect(await failureOf(() => codec.decryptFile(badTag, KEY))).toEqual(expected);
  });

  it('overlapping calls stay correct', async () => {
    const files = [300_000, 1_000_000, 2_000_000, 700_000].map((n) => randomBytes(n));
    const envelopes = await Promise.all(files.map((file) => codec.encryptFile(file, KEY)));
    const again = await Promise.all(
      [...envelopes, ...envelopes].map((envelope) => codec.decryptFile(envelope, KEY)),
    );
    for (const [i, bytes] of again.entries()) {
      expect(Buffer.from(bytes).equals(files[i % files.length]!)).toBe(true);
    }
    const mixed = await Promise.all([
      codec.decrypt(envelopes[1]!, KEY),
      codec.encryptFile(files[2]!, KEY),
      codec.decryptFile(envelopes[3]!, KEY),
    ]);
    expect(Buffer.from(mixed[2] as Uint8Array).equals(files[3]!)).toBe(true);
    expect(Buffer.from(await codec.decryptFile(mixed[1] as never, KEY)).equals(files[2]!)).toBe(true);
  });

  it('a stopped worker: calls fall back to one thread, and the next large call starts a new one', async () => {
    await parallelWorker.stop();
    expect(parallelWorker.ready).toBe(false);
    const file = randomBytes(400_000);
    const envelope = await codec.encryptFile(file, KEY);
    expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(file)).toBe(true);
    await workerUp();
    expect(await jobsDuring(() => codec.decryptFile(envelope, KEY))).toBe(1);
  });

  it('a caller that awaits large calls back to back, never yielding to the event loop, gets the worker once it is up', async () => {
    await parallelWorker.stop();
    const file = randomBytes(400_000);
    const envelope = await codec.encryptFile(file, KEY); // starts a new worker, runs on one thread
    const jobsBefore = parallelWorker.jobs;
    const nap = new Int32Array(new SharedArrayBuffer(4));
    // No timer and no I/O between the calls, so no message can reach this thread meanwhile.
    for (let i = 0; i < 2000 && parallelWorker.jobs === jobsBefore; i++) {
      Atomics.wait(nap, 0, 0, 5); // a synchronous nap while the worker starts
      expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(file)).toBe(true);
    }
    expect(parallelWorker.jobs).toBeGreaterThan(jobsBefore);
  });

  it('the worker also runs in a process started with --input-type=module (its eval code inherits that)', () => {
    const dist = new URL('../dist/index.node.js', import.meta.url);
    const script = `
      const codec = await import(${JSON.stringify(dist.href)});
      const { readdirSync } = await import('node:fs');
      const threads = () => readdirSync('/proc/self/task').length;
      const before = threads();
      const file = new Uint8Array(400000).map((_, i) => (i * 7) & 255);
      const envelope = await codec.encryptFile(file, ${JSON.stringify(KEY)}); // starts the worker
      await new Promise((resolve) => setTimeout(resolve, 500));
      const workers = threads() - before; // before the next large call, which would start another
      const back = await codec.decryptFile(envelope, ${JSON.stringify(KEY)});
      process.stdout.write(JSON.stringify({ workers, same: Buffer.from(back).equals(Buffer.from(file)) }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ workers: 1, same: true });
  });
});

describe('two threads: authentication and strictness', () => {
  let envelope: Awaited<ReturnType<typeof joseEncrypt>>;
  let file: Buffer;

  beforeAll(async () => {
    file = randomBytes(700_000);
    // An extra header member, so that a flipped bit in it still leaves a valid header.
    envelope = await joseEncrypt(filePayload(file), { x: 'abcd' });
  });

  it('every tampered member fails with the one decryption error, and no AES runs before the tag check', async () => {
    const ciphertext = fromB64u(envelope.ciphertext);
    const protectedBytes = fromB64u(envelope.protected!);
    const headerBit = (protectedBytes.indexOf('b'.charCodeAt(0)) * 8 + 6) as number;
    const tampered = [
      ...[0, 7, 8 * 1000 + 3, 8 * (ciphertext.length >> 1), 8 * ciphertext.length - 1].map((bit) => ({
        ...envelope,
        ciphertext: b64u(flipBit(ciphertext, bit)),
      })),
      ...[0, 127].map((bit) => ({ ...envelope, iv: b64u(flipBit(fromB64u(envelope.iv), bit)) })),
      ...[0, 64, 127].map((bit) => ({ ...envelope, tag: b64u(flipBit(fromB64u(envelope.tag), bit)) })),
      { ...envelope, protected: b64u(flipBit(protectedBytes, headerBit)) },
      { ...envelope, tag: b64u(fromB64u(envelope.tag).subarray(0, 15)) },
    ];
    for (const bad of tampered) {
      const { compare, decrypt } = twoThreadSpies();
      for (const call of [() => codec.decryptFile(bad, KEY), () => codec.decrypt(bad, KEY)]) {
        expect(await jobsDuring(() => expectJweError(call, 'ERR_JWE_DECRYPTION_FAILED'))).toBe(1);
        // The worker checks the tag itself before it decrypts its half: it did not start.
        expect(parallelWorker.lastTailStarted).toBe(false);
      }
      if (bad.tag.length === envelope.tag.length) expect(compare).toHaveBeenCalled();
      expect(compare.mock.results.every((result) => result.value === false)).toBe(true);
      for (const spy of decrypt) expect(spy).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    }
    await expectJweError(() => codec.decryptFile(envelope, OTHER_KEY), 'ERR_JWE_DECRYPTION_FAILED');
  });

  it('a good tag: the compare first, then AES on both threads', async () => {
    const { compare, decrypt } = twoThreadSpies();
    expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(file)).toBe(true);
    expect(parallelWorker.lastTailStarted).toBe(true);
    expect(compare).toHaveBeenCalledTimes(1);
    expect(compare.mock.results[0]!.value).toBe(true);
    const [decryptAll, decryptBlocks, decodeHead] = decrypt;
    expect(decryptAll).not.toHaveBeenCalled();
    expect(decodeHead).toHaveBeenCalledTimes(1);
    const compared = compare.mock.invocationCallOrder[0]!;
    for (const spy of [decryptBlocks!, decodeHead!]) {
      expect(Math.min(...spy.mock.invocationCallOrder)).toBeGreaterThan(compared);
    }

    vi.restoreAllMocks();
    const raw = twoThreadSpies();
    expect(Buffer.from(await codec.decrypt(envelope, KEY)).equals(Buffer.from(filePayload(file)))).toBe(true);
    expect(raw.decrypt[0]!.mock.invocationCallOrder[0]!).toBeGreaterThan(
      raw.compare.mock.invocationCallOrder[0]!,
    );
  });

  it('bad padding under a valid tag is the one decryption error', async () => {
    // 48 000 blocks of zeros: the last block's pad byte is 0.
    const blocks = new Uint8Array(48_000 * 16);
    const cek = deriveKey(KEY);
    const { createCipheriv, createHmac } = await import('node:crypto');
    const cipher = createCipheriv('aes-128-cbc', cek.subarray(16), IV).setAutoPadding(false);
    const ciphertext = Buffer.concat([cipher.update(blocks), cipher.final()]);
    const aad = Buffer.from(codec.PROTECTED_COMPACT, 'latin1');
    const al = Buffer.alloc(8);
    al.writeUInt32BE(aad.length * 8, 4);
    const tag = createHmac('sha256', cek.subarray(0, 16))
      .update(aad)
      .update(IV)
      .update(ciphertext)
      .update(al)
      .digest()
      .subarray(0, 16);
    const bad = {
      protected: codec.PROTECTED_COMPACT,
      iv: b64u(IV),
      ciphertext: b64u(ciphertext),
      tag: b64u(tag),
    };
    for (const call of [() => codec.decryptFile(bad, KEY), () => codec.decrypt(bad, KEY)]) {
      expect(await jobsDuring(() => expectJweError(call, 'ERR_JWE_DECRYPTION_FAILED'))).toBe(1);
    }
  });

  it.each([
    [
      'non-ASCII (\\u0142 keeps its low byte "B" in Buffer)',
      (t: string) => `${t.slice(0, 5000)}\u0142${t.slice(5001)}`,
    ],
    ['non-ASCII in the last piece', (t: string) => `${t.slice(0, -10)}\u0142${t.slice(-9)}`],
    ['a "+"', (t: string) => `${t.slice(0, 400_000)}+${t.slice(400_001)}`],
    ['a "/"', (t: string) => `${t.slice(0, 10)}/${t.slice(11)}`],
    ['padding', (t: string) => `${t.slice(0, -2)}==`],
    ['whitespace', (t: string) => `${t.slice(0, 70_000)} ${t.slice(70_001)}`],
    ['a line break in the first piece', (t: string) => `${t.slice(0, 100)}\n${t.slice(101)}`],
    ['length % 4 == 1', (t: string) => `${t}${t.length % 4 === 0 ? 'A' : t.length % 4 === 2 ? 'AAA' : 'AA'}`],
    ['trailing bits', (t: string) => `${t.slice(0, -1)}${t.length % 4 === 0 ? t.at(-1) : '_'}`],
  ])('strict base64url on the ciphertext: %s', async (_name, corrupt) => {
    const ciphertext = corrupt(envelope.ciphertext);
    if (ciphertext === envelope.ciphertext) return; // 'trailing bits' needs a short last group
    const bad = { ...envelope, ciphertext };
    const expected = await failureOf(() => single.decryptFile(bad, KEY));
    expect(expected).toMatchObject({ code: 'ERR_JWE_INVALID' });
    const actual = await failureOf(() => codec.decryptFile(bad, KEY));
    expect(actual).toEqual(expected);
    expect((actual as Error).message).toBe((expected as Error).message);
  });

  it('trailing bits in a ciphertext whose last group is short', async () => {
    const bytes = randomBytes(400_001); // ciphertext length % 3 != 0 for most paddings
    const envelopes = await Promise.all(
      [0, 1, 2].map((extra) => codec.encrypt(bytes.subarray(0, bytes.length - extra * 16), KEY)),
    );
    const short = envelopes.find((e) => e.ciphertext.length % 4 !== 0)!;
    const last = short.ciphertext.at(-1)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const other = alphabet[alphabet.indexOf(last) ^ 1]!;
    const bad = { ...short, ciphertext: short.ciphertext.slice(0, -1) + other };
    const error = await expectJweError(() => codec.decrypt(bad, KEY), 'ERR_JWE_INVALID');
    expect(error.message).toMatch(/trailing bits/);
    expect(await failureOf(() => single.decrypt(bad, KEY))).toEqual(error);
  });
});

describe('the worker never keeps a process alive', () => {
  const dist = fileURLToPath(new URL('../dist/', import.meta.url));
  const script = (load: string) => `
    ${load}
    const key = 'p4r4llel-k3y-016';
    const file = require('node:crypto').randomBytes(2 * 1024 * 1024);
    (async () => {
      const envelope = await codec.encryptFile(file, key); // starts the worker
      await new Promise((resolve) => setTimeout(resolve, 300));
      const back = await codec.decryptFile(await codec.encryptFile(file, key), key);
      if (!Buffer.from(back).equals(file) || !Buffer.from(await codec.decryptFile(envelope, key)).equals(file)) process.exit(3);
      // The diagnostic report lists the process's worker threads: the helper must be one of them.
      const workers = process.report.getReport().workers.length;
      console.log(workers > 0 ? 'worker ok' : 'ok');
    })();`;

  const run = (args: string[]) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    return new Promise<{ code: number | null; out: string }>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve({ code: null, out });
      }, 20_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out: out.trim() });
      });
    });
  };

  /** Writes the child's program to a file (the diagnostic report lists no workers under `-e`). */
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const programFile = async (name: string, load: string) => {
    const dir = await mkdtemp(join(tmpdir(), 'jwe-parallel-'));
    dirs.push(dir);
    const path = join(dir, name);
    await writeFile(path, script(load));
    return path;
  };
  const cjs = `const codec = require(${JSON.stringify(`${dist}index.node.cjs`)});`;
  const esm = `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url); const codec = await import(${JSON.stringify(`${dist}index.node.js`)});`;

  it('where no worker may start (the permission model), large calls run on one thread', async () => {
    const flag = process.allowedNodeEnvironmentFlags.has('--permission')
      ? '--permission'
      : '--experimental-permission';
    const { code, out } = await run([flag, '--allow-fs-read=*', await programFile('child.cjs', cjs)]);
    expect(out.split('\n').at(-1)).toBe('ok'); // no worker thread, same results
    expect(code).toBe(0);
  });

  it.each([
    ['CommonJS', 'child.cjs', cjs],
    ['ES module', 'child.mjs', esm],
  ])('a %s process that used it exits with code 0 on its own', async (_name, file, load) => {
    const { code, out } = await run([await programFile(file, load)]);
    expect(out).toBe('worker ok');
    expect(code).toBe(0);
  });
});
