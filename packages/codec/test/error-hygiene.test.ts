import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROTECTED_COMPACT } from '../src/header.js';
import { backends, type Codec } from './support/backends.js';
import { b64u, fromB64u, patternBytes, toHex, utf8 } from './support/bytes.js';
import { failureOf } from './support/errors.js';
import { rawEnvelope } from './support/raw-jwe.js';

/*
 * Errors end up in logs and HTTP responses. Whatever fails, the shared key (in any spelling) and
 * the plaintext (or any part of it) must not appear in the message, the stack or the inspected error.
 */

const KEY = 'S3cr3t-Sh4red-K1';
const KEY_BYTES = utf8(KEY + KEY);
const SECRET = 'PATIENT-SSN-123-45-6789';

const forbidden = [
  KEY,
  KEY.slice(0, 8),
  toHex(KEY_BYTES),
  toHex(KEY_BYTES.subarray(0, 16)),
  b64u(KEY_BYTES),
  Buffer.from(KEY_BYTES).toString('base64'),
  SECRET,
  'SSN-123',
];

type Scenario = [string, (codec: Codec) => Promise<unknown>];

const SCENARIOS: Scenario[] = [
  ['wrong key', async (c) => c.decrypt(await c.encrypt(SECRET, KEY), 'Other-Shared-Key')],
  [
    'bad tag',
    async (c) => {
      const e = await c.encrypt(SECRET, KEY);
      return c.decrypt({ ...e, tag: b64u(new Uint8Array(16)) }, KEY);
    },
  ],
  [
    'bad padding under a valid tag',
    async (c) =>
      c.decrypt(
        rawEnvelope({
          key: KEY_BYTES,
          iv: patternBytes(16, 2),
          plaintext: utf8(SECRET.padEnd(32, '\u0000')),
          aad: PROTECTED_COMPACT,
          pkcs7: false,
          protectedText: PROTECTED_COMPACT,
        }),
        KEY,
      ),
  ],
  ['shared key too long', async (c) => c.encrypt(SECRET, `${KEY}X`)],
  ['shared key too short', async (c) => c.encrypt(SECRET, KEY.slice(0, 15))],
  ['deriveKey of a doubled key', async (c) => c.deriveKey(KEY + KEY)],
  ['raw key of 31 bytes', async (c) => c.encrypt(SECRET, KEY_BYTES.subarray(0, 31))],
  ['keyring with a bad key', async (c) => c.keyring({ a: `${KEY}!` })],
  ['unknown kid', async (c) => c.decrypt(await c.encrypt(SECRET, KEY, { kid: 'k9' }), () => undefined)],
  ['decryptJson of a non-JSON plaintext', async (c) => c.decryptJson(await c.encrypt(SECRET, KEY), KEY)],
  [
    'decryptJson of invalid UTF-8 plaintext',
    async (c) => c.decryptJson(await c.encrypt(Uint8Array.from([...utf8(SECRET), 0xff]), KEY), KEY),
  ],
  [
    'decryptFile of a JSON object without "file"',
    async (c) => c.decryptFile(await c.encrypt(`{"note":"${SECRET}"}`, KEY), KEY),
  ],
  [
    'decryptFile of a non-base64 file member',
    async (c) => c.decryptFile(await c.encrypt(`{"file":"${SECRET}"}`, KEY), KEY),
  ],
  [
    'decryptFile of a payload with a duplicate member named after plaintext',
    async (c) => c.decryptFile(await c.encrypt(`{"file":"QUFB","${SECRET}":1,"${SECRET}":2}`, KEY), KEY),
  ],
  [
    'decryptFile of plaintext that is not JSON',
    async (c) => c.decryptFile(await c.encrypt(SECRET, KEY), KEY),
  ],
  [
    'a tampered ciphertext',
    async (c) => {
      const e = await c.encrypt(SECRET, KEY);
      const ct = fromB64u(e.ciphertext);
      ct[0]! ^= 1;
      return c.decrypt({ ...e, ciphertext: b64u(ct) }, KEY);
    },
  ],
];

describe.each(backends)('error messages keep secrets, $name back end', ({ codec }) => {
  it.each(SCENARIOS)('%s', async (_name, scenario) => {
    const error = await failureOf(() => scenario(codec));
    expect(error).toBeInstanceOf(Error);
    const rendered = [
      String((error as Error).message),
      String((error as Error).stack),
      inspect(error, { depth: 6 }),
    ].join('\n');
    for (const secret of forbidden) expect(rendered).not.toContain(secret);
    expect((error as { code?: unknown }).code).toMatch(/^ERR_/);
  });
});
