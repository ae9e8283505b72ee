import { Buffer } from 'node:buffer';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The published WebCrypto build (pnpm build first): what browsers, workers and --conditions=browser load.
import * as webCodec from '../dist/index.js';
import * as codec from '../src/index.js';
import { expectJweError } from './support/errors.js';
import { joseNpmDecrypt, jwcryptoDecrypt, jwcryptoEncrypt } from './support/peers.js';
import { rawEnvelope } from './support/raw-jwe.js';
import { bytesFrom, collect, memorySink } from './support/streams.js';

const KEY = 'stream-test-k16!';
const OTHER_KEY = 'another-key-16ch';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'jwe-stream-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Cuts `bytes` into consecutive pieces cycling through `sizes`, at most ~2000 of them. */
function cut(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const floor = Math.ceil(bytes.length / 2000);
  const pieces: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = Math.max(1, floor, sizes[i % sizes.length] ?? 1);
    pieces.push(bytes.subarray(at, at + size));
    at += size;
  }
  return pieces;
}

async function* slowly(pieces: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield piece;
}

async function decryptToMemory(
  envelope: Uint8Array | Uint8Array[],
  options: Omit<codec.DecryptStreamOptions, 'to'> = {},
  key: codec.KeyInput | codec.KeyResolver = KEY,
  raw = false,
) {
  const sink = memorySink();
  const pieces = Array.isArray(envelope) ? envelope : [envelope];
  const run = raw ? codec.decryptStream : codec.decryptFileStream;
  const result = await run(slowly(pieces), key, { ...options, to: sink.stream });
  expect(sink.state.closed).toBe(true);
  return { result, bytes: sink.bytes() };
}

const chunkSizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 300_000 })), {
  minLength: 1,
  maxLength: 6,
});
/** Mostly small files, sometimes up to 3 MiB. */
const fileSize = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 300 }) },
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 200_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 * 1024 * 1024 }) },
);
const iv16 = fc.uint8Array({ minLength: 16, maxLength: 16 });

/** Checks `check` on any input (size, content), any chunking, any IV, with and without a kid. */
function forAnyChunkedInput(
  numRuns: number,
  check: (
    input: Buffer,
    sizes: number[],
    options: { unsafeFixedIv: Uint8Array; kid?: string },
  ) => Promise<void>,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(
      fileSize,
      fc.nat(),
      chunkSizes,
      iv16,
      fc.option(fc.string(), { nil: undefined }),
      (size, seed, sizes, iv, kid) =>
        check(
          bytesFrom(seed, size),
          sizes,
          kid === undefined ? { unsafeFixedIv: iv } : { unsafeFixedIv: iv, kid },
        ),
    ),
    { numRuns },
  );
}

const MEMBERS = ['protected', 'iv', 'ciphertext', 'tag', 'kid'] as const;
const WHITESPACE = ['', ' ', '\n', '\t', '\r\n  '];

/** JSON text of `envelope` with members in `order` and the chosen whitespace between tokens. */
function spell(
  envelope: Record<string, unknown>,
  order: readonly string[],
  spaces: readonly number[],
): string {
  let i = 0;
  const ws = () => WHITESPACE[(spaces[i++ % Math.max(1, spaces.length)] ?? 0) % WHITESPACE.length]!;
  const members = order
    .filter((name) => envelope[name] !== undefined)
    .map((name) => `${ws()}${JSON.stringify(name)}${ws()}:${ws()}${JSON.stringify(envelope[name])}${ws()}`);
  return `${ws()}{${members.join(',')}}${ws()}`;
}

describe('encryptFileStream', () => {
  it('emits byte for byte what JSON.stringify(encryptFile()) gives, for any file and chunking', async () => {
    await forAnyChunkedInput(40, async (file, sizes, options) => {
      const streamed = await collect(codec.encryptFileStream(slowly(cut(file, sizes)), KEY, options));
      const oneShot = JSON.stringify(await codec.encryptFile(file, KEY, options));
      expect(streamed.toString('utf8')).toBe(oneShot);
      expect(Buffer.from(await codec.decryptFile(streamed, KEY)).equals(file)).toBe(true);
    });
  });

  it('draws a fresh random IV for every envelope', async () => {
    const a = JSON.parse((await collect(codec.encryptFileStream([Buffer.from('x')], KEY))).toString());
    const b = JSON.parse((await collect(codec.encryptFileStream([Buffer.from('x')], KEY))).toString());
    expect(a.iv).not.toBe(b.iv);
    expect(Buffer.from(a.iv, 'base64url')).toHaveLength(16);
  });

  it('reads Web ReadableStreams and Node streams alike', async () => {
    const file = bytesFrom(1, 100_000);
    const iv = new Uint8Array(16).fill(3);
    const expected = JSON.stringify(await codec.encryptFile(file, KEY, { unsafeFixedIv: iv }));
    const web = new Blob([new Uint8Array(file)]).stream();
    expect((await collect(codec.encryptFileStream(web, KEY, { unsafeFixedIv: iv }))).toString()).toBe(
      expected,
    );
    const { Readable } = await import('node:stream');
    const node = Readable.from([file.subarray(0, 5), file.subarray(5)]);
    expect((await collect(codec.encryptFileStream(node, KEY, { unsafeFixedIv: iv }))).toString()).toBe(
      expected,
    );
  });
});

describe('decryptFileStream', () => {
  it('decrypts one-shot envelopes in any member order, whitespace and chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileSize,
        fc.nat(),
        chunkSizes,
        fc.shuffledSubarray([...MEMBERS], { minLength: 5, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (size, seed, sizes, order, spaces) => {
          const file = bytesFrom(seed, size);
          const envelope = await codec.encryptFile(file, KEY, { kid: 'k1' });
          const text = Buffer.from(spell({ ...envelope }, order, spaces));
          const { result, bytes } = await decryptToMemory(cut(text, sizes));
          expect(bytes.equals(file)).toBe(true);
          expect(result).toMatchObject({ bytes: size, kid: 'k1', headerSource: 'protected' });
          // Only an iv or protected header after the ciphertext forces the temporary copy.
          const before = order.slice(0, order.indexOf('ciphertext'));
          expect(result.spilled).toBe(!(before.includes('iv') && before.includes('protected')));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('keeps concurrent streams apart', async () => {
    const files = [0, 1, 2, 3, 4, 5].map((i) => bytesFrom(300 + i, 150_000 + i * 7919));
    const envelopes = await Promise.all(
      files.map((file) => collect(codec.encryptFileStream(slowly(cut(file, [8192])), KEY))),
    );
    for (const [i, envelope] of envelopes.entries()) {
      expect(Buffer.from(await codec.decryptFile(envelope, KEY)).equals(files[i]!)).toBe(true);
    }
    const decrypted = await Promise.all(envelopes.map((envelope) => decryptToMemory(cut(envelope, [5000]))));
    for (const [i, { bytes }] of decrypted.entries()) expect(bytes.equals(files[i]!)).toBe(true);
  });

  it('round-trips encryptFileStream output through a file destination', async () => {
    const file = bytesFrom(7, 1_000_003);
    const envelope = await collect(codec.encryptFileStream(slowly(cut(file, [65_536])), KEY));
    const to = join(dir, 'roundtrip.bin');
    const result = await codec.decryptFileStream(slowly(cut(envelope, [100_000])), KEY, { to });
    expect((await readFile(to)).equals(file)).toBe(true);
    expect(result).toMatchObject({ bytes: file.length, spilled: false, kid: undefined });
    expect(await readdir(dir)).toEqual(['roundtrip.bin']);
    await rm(to);
  });

  it("leaves the caller's chunks intact (nothing is transferred away or reused)", async () => {
    const file = bytesFrom(12, 600_000);
    const fileCopy = Buffer.from(file);
    const pieces = cut(file, [200_000]);
    const envelope = await collect(codec.encryptFileStream(pieces, KEY));
    expect(pieces.map((p) => p.length)).toEqual([200_000, 200_000, 200_000]);
    expect(file.equals(fileCopy)).toBe(true);
    const envelopeCopy = Buffer.from(envelope);
    const envelopePieces = cut(envelope, [300_000]);
    const { bytes } = await decryptToMemory(envelopePieces);
    expect(bytes.equals(file)).toBe(true);
    expect(envelopePieces.reduce((n, p) => n + p.length, 0)).toBe(envelope.length);
    expect(envelope.equals(envelopeCopy)).toBe(true);
  });

  it('reads any JSON spelling of the file payload, as decryptFile does', async () => {
    const file = bytesFrom(3, 5000);
    const b64 = file.toString('base64');
    const spellings = [
      `{"file": "${b64}"}`,
      ` \n{ "file" :\t"${b64}" }\r\n`,
      `{"\\u0066ile":"${b64.slice(0, 100)}\\u0041${b64.slice(101)}"}`.replace('\\u0041', b64[100]!),
      `{"file":"${b64.replaceAll('/', '\\/')}"}`,
    ];
    for (const payload of spellings) {
      const envelope = await codec.encrypt(payload, KEY);
      const { bytes } = await decryptToMemory(cut(Buffer.from(JSON.stringify(envelope)), [777]));
      expect(bytes.equals(Buffer.from(await codec.decryptFile(envelope, KEY)))).toBe(true);
      expect(bytes.equals(file)).toBe(true);
    }
  });

  it('reports a payload that is not a file payload only once the tag has verified', async () => {
    for (const payload of [
      '{"nofile":"AAAA"}',
      '{"file":"AAA"}',
      '{"file":"AAAA","x":1}',
      '["AAAA"]',
      '{"file":"A A="}',
    ]) {
      const envelope = JSON.stringify(await codec.encrypt(payload, KEY));
      const oneShot = await expectJweError(() => codec.decryptFile(envelope, KEY), 'ERR_JWE_INVALID');
      const sink = memorySink();
      const streamed = await expectJweError(
        () => codec.decryptFileStream([Buffer.from(envelope)], KEY, { to: sink.stream }),
        'ERR_JWE_INVALID',
      );
      expect(streamed.code).toBe(oneShot.code);
      expect(sink.state.aborted).toBe(true);
      // The same malformed payload under a tampered tag is an authentication failure instead.
      const parsed = JSON.parse(envelope);
      parsed.tag = Buffer.from(Buffer.from(parsed.tag, 'base64url').map((b) => b ^ 1)).toString('base64url');
      await expectJweError(
        () =>
          codec.decryptFileStream([Buffer.from(JSON.stringify(parsed))], KEY, { to: memorySink().stream }),
        'ERR_JWE_DECRYPTION_FAILED',
      );
    }
  });
});

describe('raw variants', () => {
  it('round-trip arbitrary bytes and agree with the one-shot encrypt/decrypt', async () => {
    await forAnyChunkedInput(25, async (plaintext, sizes, options) => {
      const streamed = await collect(codec.encryptStream(slowly(cut(plaintext, sizes)), KEY, options));
      expect(streamed.toString('utf8')).toBe(JSON.stringify(await codec.encrypt(plaintext, KEY, options)));
      const { bytes } = await decryptToMemory(cut(streamed, sizes), {}, KEY, true);
      expect(bytes.equals(plaintext)).toBe(true);
    });
  });
});

describe('member order', () => {
  it('both encoders write kid, protected, iv, ciphertext, tag, so a receiver decrypts without spilling', async () => {
    const file = bytesFrom(12, 200_000);
    const options = { kid: 'k-order', unsafeFixedIv: new Uint8Array(16).fill(9) };
    const ring = codec.keyring({ other: 'an0ther-k3y-0000', 'k-order': KEY });
    const cases = [
      {
        raw: false,
        streamed: await collect(codec.encryptFileStream([file], KEY, options)),
        oneShot: JSON.stringify(await codec.encryptFile(file, KEY, options)),
      },
      {
        raw: true,
        streamed: await collect(codec.encryptStream([file], KEY, options)),
        oneShot: JSON.stringify(await codec.encrypt(file, KEY, options)),
      },
    ];
    for (const { raw, streamed, oneShot } of cases) {
      expect(streamed.toString('utf8')).toBe(oneShot);
      expect(Object.keys(JSON.parse(oneShot))).toEqual(['kid', 'protected', 'iv', 'ciphertext', 'tag']);
      const { result } = await decryptToMemory([streamed], {}, ring, raw);
      expect(result).toMatchObject({ kid: 'k-order', spilled: false });
    }
  });
});

describe('the authentication contract', () => {
  const file = bytesFrom(11, 200_000);
  let envelope: codec.Envelope;
  beforeAll(async () => {
    envelope = await codec.encryptFile(file, KEY, { kid: 'k1' });
  });

  function flipChar(text: string, index: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const next = alphabet[(alphabet.indexOf(text[index]!) + 1) % 64]!;
    return text.slice(0, index) + next + text.slice(index + 1);
  }

  const tampered: Array<[string, (e: codec.Envelope) => Record<string, unknown>]> = [
    ['a ciphertext character at the start', (e) => ({ ...e, ciphertext: flipChar(e.ciphertext, 0) })],
    ['a ciphertext character in the middle', (e) => ({ ...e, ciphertext: flipChar(e.ciphertext, 100_000) })],
    [
      'a ciphertext character at the end',
      (e) => ({ ...e, ciphertext: flipChar(e.ciphertext, e.ciphertext.length - 3) }),
    ],
    [
      'the last ciphertext block removed',
      (e) => ({
        ...e,
        ciphertext: Buffer.from(e.ciphertext, 'base64url').subarray(0, -16).toString('base64url'),
      }),
    ],
    ['the tag', (e) => ({ ...e, tag: flipChar(e.tag, 4) })],
    ['the iv', (e) => ({ ...e, iv: flipChar(e.iv, 0) })],
    ['the protected header (re-encoded with spaces)', (e) => ({ ...e, protected: codec.PROTECTED_SPACED })],
  ];

  it.each(tampered)('rejects %s as ERR_JWE_DECRYPTION_FAILED and leaves no file', async (_name, tamper) => {
    const changed = tamper(envelope);
    await expectJweError(
      () => codec.decryptFile(changed as unknown as codec.Envelope, KEY),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    const to = join(dir, 'tampered.bin');
    const text = Buffer.from(JSON.stringify(changed));
    await expectJweError(
      () => codec.decryptFileStream(slowly(cut(text, [4096])), KEY, { to }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    expect(await readdir(dir)).toEqual([]);
    const sink = memorySink();
    await expectJweError(
      () => codec.decryptFileStream([text], KEY, { to: sink.stream }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    expect(sink.state).toEqual({ closed: false, aborted: true });
  });

  it('rejects the wrong key with the same error and message', async () => {
    const text = Buffer.from(JSON.stringify(envelope));
    const oneShot = await expectJweError(
      () => codec.decryptFile(envelope, OTHER_KEY),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    const streamed = await expectJweError(
      () => codec.decryptFileStream([text], OTHER_KEY, { to: join(dir, 'x.bin') }),
      'ERR_JWE_DECRYPTION_FAILED',
    );
    expect(streamed.message).toBe(oneShot.message);
    expect(await readdir(dir)).toEqual([]);
  });

  it('leaves an existing destination untouched when decryption fails', async () => {
    const to = join(dir, 'existing.bin');
    await writeFile(to, 'previous content');
    const text = Buffer.from(JSON.stringify({ ...envelope, tag: flipChar(envelope.tag, 0) }));
    await expectJweError(() => codec.decryptFileStream([text], KEY, { to }), 'ERR_JWE_DECRYPTION_FAILED');
    expect(await readFile(to, 'utf8')).toBe('previous content');
    expect(await readdir(dir)).toEqual(['existing.bin']);
    await rm(to);
  });

  it('fails like the one-shot decryptFile for any single-character corruption', async () => {
    const small = await codec.encryptFile(bytesFrom(5, 300), KEY, { kid: 'k1' });
    const text = JSON.stringify(small);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: text.length - 1 }),
        fc.constantFrom(
          'A',
          'Q',
          'w',
          '-',
          '_',
          '+',
          '/',
          '=',
          ' ',
          '"',
          '\\',
          '{',
          '}',
          ',',
          ':',
          '\u00e9',
          '',
        ),
        async (index, replacement) => {
          const corrupted = text.slice(0, index) + replacement + text.slice(index + 1);
          const expected = await codec.decryptFile(corrupted, KEY).then(
            (bytes) => ({ ok: Buffer.from(bytes).toString('hex') }),
            (error: codec.JweError) => ({ code: error.code }),
          );
          const sink = memorySink();
          const actual = await codec
            .decryptFileStream([Buffer.from(corrupted)], KEY, { to: sink.stream })
            .then(
              () => ({ ok: sink.bytes().toString('hex') }),
              (error: codec.JweError) => ({ code: error.code }),
            );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('headers', () => {
  const plaintext = Buffer.from('{"file":"aGVsbG8="}');

  it.each([
    ['alg', { alg: 'A128KW', enc: 'A128CBC-HS256' }, 'ERR_JWE_UNSUPPORTED'],
    ['enc', { alg: 'dir', enc: 'A256GCM' }, 'ERR_JWE_UNSUPPORTED'],
    ['zip', { alg: 'dir', enc: 'A128CBC-HS256', zip: 'DEF' }, 'ERR_JWE_UNSUPPORTED'],
    ['crit', { alg: 'dir', enc: 'A128CBC-HS256', crit: ['exp'], exp: 1 }, 'ERR_JWE_UNSUPPORTED'],
    ['duplicate alg', '{"alg":"dir","alg":"dir","enc":"A128CBC-HS256"}', 'ERR_JWE_INVALID'],
  ] as const)('refuses a protected header with %s, with the one-shot code', async (_name, header, code) => {
    const protectedText = Buffer.from(typeof header === 'string' ? header : JSON.stringify(header)).toString(
      'base64url',
    );
    const envelope = { ...(await codec.encrypt(plaintext, KEY)), protected: protectedText };
    await expectJweError(() => codec.decryptFile(envelope, KEY), code);
    const sink = memorySink();
    await expectJweError(
      () => codec.decryptFileStream([Buffer.from(JSON.stringify(envelope))], KEY, { to: sink.stream }),
      code,
    );
    expect(sink.state.aborted).toBe(true);
  });

  it('reads envelopes without "protected" under every missingProtected policy, as decryptDetailed does', async () => {
    const key = codec.deriveKey(KEY);
    const iv = new Uint8Array(16).fill(9);
    for (const aad of ['', codec.PROTECTED_COMPACT, codec.PROTECTED_SPACED]) {
      const envelope = rawEnvelope({ key, iv, plaintext, aad });
      for (const order of [
        ['ciphertext', 'iv', 'tag'],
        ['iv', 'ciphertext', 'tag'],
      ]) {
        const text = Buffer.from(spell(envelope, order, [1]));
        for (const missingProtected of ['infer', 'rfc', 'reject'] as const) {
          const expected = await codec.decryptDetailed(envelope, KEY, { missingProtected }).then(
            (r) => ({ ok: r.headerSource }),
            (error: codec.JweError) => ({ code: error.code }),
          );
          const actual = await decryptToMemory([text], { missingProtected }).then(
            (r) => ({ ok: r.result.headerSource }),
            (error: codec.JweError) => ({ code: error.code }),
          );
          expect(actual).toEqual(expected);
        }
      }
    }
  });

  it('picks the key by kid with a resolver, before or after the ciphertext', async () => {
    const ring = codec.keyring({ a: OTHER_KEY, b: KEY });
    // Big enough that the spilled ciphertext spans several write batches and read-back pieces.
    const file = bytesFrom(2, 2_500_000);
    const envelope = await codec.encryptFile(file, KEY, { kid: 'b' });
    const kidFirst = Buffer.from(JSON.stringify(envelope));
    const kidLast = Buffer.from(spell({ ...envelope }, ['protected', 'iv', 'ciphertext', 'tag', 'kid'], []));
    const last = await decryptToMemory([kidLast], {}, ring);
    expect(last.bytes.equals(file)).toBe(true);
    expect(last.result).toMatchObject({ kid: 'b', spilled: true });
    const first = await decryptToMemory([kidFirst], {}, ring);
    expect(first.bytes.equals(file)).toBe(true);
    expect(first.result).toMatchObject({ kid: 'b', spilled: false });
    const unknown = Buffer.from(JSON.stringify({ ...envelope, kid: 'zz' }));
    await expectJweError(
      () => codec.decryptFileStream([unknown], ring, { to: join(dir, 'k.bin') }),
      'ERR_KEY_UNKNOWN',
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses an "aad" member that comes after the ciphertext instead of misreading it', async () => {
    const envelope = await codec.encrypt(plaintext, KEY);
    const text = `${JSON.stringify(envelope).slice(0, -1)},"aad":"AAAA"}`;
    await expectJweError(() => codec.decrypt(text, KEY), 'ERR_JWE_DECRYPTION_FAILED');
    await expectJweError(() => decryptToMemory([Buffer.from(text)], {}, KEY, true), 'ERR_JWE_UNSUPPORTED');
  });

  it('refuses malformed envelopes with the one-shot codes', async () => {
    const envelope = JSON.stringify(await codec.encrypt(plaintext, KEY));
    const cases = [
      '',
      '   ',
      envelope.slice(0, -1),
      `${envelope}x`,
      envelope.replace('"tag"', '"tog"'),
      envelope.replace('"tag"', '"iv"'),
      envelope.replace(/"tag":"[^"]*"/, '"tag":5'),
      `{"recipients":[],${envelope.slice(1)}`,
      `${envelope.slice(0, -1)},"header":{"alg":"dir"}}`,
      `${envelope.slice(0, -1)},"encrypted_key":"AA"}`,
      `[${envelope}]`,
      `\ufeff${envelope}`,
      toCompactSafe(envelope),
    ];
    for (const text of cases) {
      const expected = await codec.decrypt(text, KEY).then(
        () => 'ok',
        (error: codec.JweError) => error.code,
      );
      const actual = await decryptToMemory([Buffer.from(text)], {}, KEY, true).then(
        () => 'ok',
        (error: codec.JweError) => error.code,
      );
      // Compact JWE is a one-shot convenience; streaming reads the JSON serialization only.
      expect(actual).toBe(text.startsWith('eyJ') ? 'ERR_JWE_INVALID' : expected);
    }
  });
});

function toCompactSafe(envelope: string): string {
  return codec.toCompact(JSON.parse(envelope));
}

describe('limits', () => {
  it('encrypts up to maxSize and errors past it before emitting a tag', async () => {
    const file = bytesFrom(4, 10_000);
    const ok = await collect(codec.encryptFileStream([file], KEY, { maxSize: 10_000 }));
    expect(Buffer.from(await codec.decryptFile(ok, KEY)).equals(file)).toBe(true);
    const stream = codec.encryptFileStream(slowly(cut(file, [1000])), KEY, { maxSize: 9_999 });
    const parts: string[] = [];
    const error = await expectJweError(async () => {
      for await (const part of stream as unknown as AsyncIterable<Uint8Array>)
        parts.push(Buffer.from(part).toString());
    }, 'ERR_JWE_TOO_LARGE');
    expect(error.message).toMatch(/9999 bytes/);
    expect(parts.join('')).not.toMatch(/"tag"/);
  });

  it('decrypts up to maxSize and fails early past it, with no output', async () => {
    const file = bytesFrom(6, 10_000);
    const envelope = Buffer.from(JSON.stringify(await codec.encryptFile(file, KEY)));
    const { bytes } = await decryptToMemory([envelope], { maxSize: 10_000 });
    expect(bytes.equals(file)).toBe(true);
    const to = join(dir, 'limited.bin');
    await expectJweError(
      () => codec.decryptFileStream([envelope], KEY, { to, maxSize: 9_999 }),
      'ERR_JWE_TOO_LARGE',
    );
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    ['ciphertext last', ['protected', 'iv', 'tag', 'ciphertext']],
    ['ciphertext first (spilled)', ['ciphertext', 'protected', 'iv', 'tag']],
  ])('stops reading an oversized envelope early (%s)', async (_name, order) => {
    const big = await codec.encrypt(bytesFrom(8, 4 * 1024 * 1024), KEY);
    const text = Buffer.from(spell({ ...big }, order, []));
    let pulled = 0;
    async function* counted() {
      for (const piece of cut(text, [64 * 1024])) {
        pulled += piece.length;
        yield piece;
      }
    }
    const sink = memorySink();
    await expectJweError(
      () => codec.decryptStream(counted(), KEY, { to: sink.stream, maxSize: 100_000 }),
      'ERR_JWE_TOO_LARGE',
    );
    expect(pulled).toBeLessThan(text.length / 4);
    expect(sink.state.aborted).toBe(true);
  });

  it('with maxSize, also bounds the whitespace and other members around the ciphertext', async () => {
    const envelope = JSON.stringify(await codec.encryptFile(bytesFrom(9, 1000), KEY));
    const roomy = Buffer.from(`${' '.repeat(100_000)}${envelope}${'\n'.repeat(100_000)}`);
    expect((await decryptToMemory([roomy], { maxSize: 1000 })).bytes.length).toBe(1000);
    const endless = Buffer.from(`${envelope}${' '.repeat(2 * 1024 * 1024)}`);
    await expectJweError(
      () => decryptToMemory(cut(endless, [65_536]), { maxSize: 1000 }),
      'ERR_JWE_TOO_LARGE',
    );
  });

  it('bounds every member other than the ciphertext', async () => {
    const envelope = await codec.encrypt(plaintext(), KEY);
    const text = `{"kid":"${'k'.repeat(70_000)}",${JSON.stringify(envelope).slice(1)}`;
    await expectJweError(() => decryptToMemory([Buffer.from(text)], {}, KEY, true), 'ERR_JWE_TOO_LARGE');
  });

  function plaintext() {
    return Buffer.from('{"file":""}');
  }
});

describe('arguments', () => {
  it('reports a bad key synchronously and bad chunks as TypeError', async () => {
    expect(() => codec.encryptFileStream([], 'short')).toThrowError(
      expect.objectContaining({ code: 'ERR_KEY_INVALID' }),
    );
    const stream = codec.encryptFileStream(['text' as unknown as Uint8Array], KEY);
    await expect(collect(stream)).rejects.toThrowError(TypeError);
    await expect(codec.decryptFileStream([], KEY, {} as codec.DecryptStreamOptions)).rejects.toThrowError(
      TypeError,
    );
    expect(() => codec.encryptStream([], KEY, { maxSize: -1 })).toThrowError(TypeError);
    const notASource = codec.encryptFileStream('file contents' as unknown as codec.ByteSource, KEY);
    await expect(collect(notASource)).rejects.toThrowError(/ReadableStream or an \(async\) iterable/);
  });

  it('the WebCrypto build says that streaming needs the Node.js or Deno build', async () => {
    expect(webCodec.streamingAvailable).toBe(false);
    expect(() => webCodec.encryptFileStream([], KEY)).toThrowError(
      expect.objectContaining({ code: 'ERR_JWE_UNSUPPORTED' }),
    );
    expect(() => webCodec.encryptStream([], KEY)).toThrowError(/Node\.js and Deno builds/);
    await expect(webCodec.decryptFileStream([], KEY, { to: memorySink().stream })).rejects.toMatchObject({
      code: 'ERR_JWE_UNSUPPORTED',
    });
    await expect(webCodec.decryptStream([], KEY, { to: memorySink().stream })).rejects.toMatchObject({
      code: 'ERR_JWE_UNSUPPORTED',
    });
  });
});

describe('independent peers', () => {
  const sizes = [0, 1, 15, 16, 17, 48_000, 300_001];

  it('python-jwcrypto and npm jose decrypt streamed envelopes', async () => {
    const files = sizes.map((size, i) => bytesFrom(100 + i, size));
    const envelopes = await Promise.all(
      files.map(async (file) =>
        JSON.parse(
          (await collect(codec.encryptFileStream(slowly(cut(file, [1000])), KEY, { kid: 'k' }))).toString(),
        ),
      ),
    );
    const results = await jwcryptoDecrypt(KEY, envelopes);
    for (const [i, result] of results.entries()) {
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      const payload = JSON.parse(Buffer.from(result.plaintext).toString());
      expect(Buffer.from(payload.file, 'base64').equals(files[i]!)).toBe(true);
      const viaJose = JSON.parse(Buffer.from(await joseNpmDecrypt(KEY, envelopes[i])).toString());
      expect(viaJose.file).toBe(payload.file);
    }
  });

  it('decrypts what python-jwcrypto encrypts (Python spells the payload with a space)', async () => {
    const file = bytesFrom(200, 70_000);
    const payload = Buffer.from(`{"file": "${file.toString('base64')}"}`);
    const [envelope] = await jwcryptoEncrypt(KEY, payload, { kid: 'py' });
    const text = Buffer.from(JSON.stringify(envelope));
    const { bytes, result } = await decryptToMemory(cut(text, [333]));
    expect(bytes.equals(file)).toBe(true);
    expect(result.kid).toBe('py');
  });
});
