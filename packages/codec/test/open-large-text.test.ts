import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { CIPHERTEXT_RANGE_FROM } from '../src/one-shot/ciphertext-range.js';
import { backends } from './support/backends.js';
import { failureOf } from './support/errors.js';
import { joseNpmEncrypt } from './support/peers.js';
import { bytesFrom } from './support/streams.js';

/*
 * Envelope text or bytes of CIPHERTEXT_RANGE_FROM characters and more are opened without copying
 * the ciphertext out (src/one-shot/ciphertext-range.ts). Whatever arrives, the outcome must be the
 * one reading the whole text gives: the same plaintext, or the same error (code and message). The
 * whole-text reading is what an envelope object takes, after the text's own strict parse.
 */

const KEY = 'k3y-f0r-t3st1ng!';
const FILE = bytesFrom(4, 200_000);

type Codec = (typeof backends)[number]['codec'];

/** What reading the whole text gives: its strict parse's error, or the outcome for its object. */
async function wholeOutcome(codec: Codec, text: string) {
  let envelope: ReturnType<Codec['readEnvelope']>;
  try {
    envelope = codec.readEnvelope(text);
  } catch (error) {
    return describeFailure(error);
  }
  return outcome(() => codec.decryptDetailed(envelope, KEY));
}

function describeFailure(error: unknown) {
  const { code, message, name } = error as { code?: string; message: string; name: string };
  return { failed: true, code, message, name };
}

async function outcome(action: () => Promise<{ plaintext: Uint8Array }>) {
  try {
    const { plaintext, ...rest } = await action();
    return { failed: false, plaintext: Buffer.from(plaintext).toString('hex'), ...rest };
  } catch (error) {
    return describeFailure(error);
  }
}

/** The outcome for the text as a string, as UTF-8 bytes and as a view into a larger buffer. */
async function expectSameAsWhole(codec: Codec, text: string) {
  const expected = await wholeOutcome(codec, text);
  const bytes = Buffer.from(text);
  const padded = Buffer.concat([Buffer.from('xx'), bytes, Buffer.from('yy')]);
  const view = new Uint8Array(padded.buffer, padded.byteOffset + 2, bytes.length);
  const copy = Buffer.from(view);
  expect(await outcome(() => codec.decryptDetailed(text, KEY))).toEqual(expected);
  expect(await outcome(() => codec.decryptDetailed(bytes, KEY))).toEqual(expected);
  expect(await outcome(() => codec.decryptDetailed(view, KEY))).toEqual(expected);
  expect(Buffer.from(view).equals(copy)).toBe(true); // the caller's bytes are left as they were
  // Handed over, the bytes may be decrypted within, and the outcome is still the same.
  const handedOver = Buffer.from(text);
  expect(await outcome(() => codec.decryptDetailed(handedOver, KEY, { consumeInput: true }))).toEqual(
    expected,
  );
  return expected;
}

/** `text` with the ciphertext member's value replaced by `change(value)`. */
function withCiphertext(text: string, change: (value: string) => string): string {
  const envelope = JSON.parse(text);
  return text.replace(
    `"ciphertext":"${envelope.ciphertext}"`,
    `"ciphertext":"${change(envelope.ciphertext)}"`,
  );
}

describe.each(backends)('opening large envelope text, $name back end', ({ codec }) => {
  it('opens what encryptFile and JSON.stringify wrote, as text, bytes and a view, like the whole text', async () => {
    const text = JSON.stringify(await codec.encryptFile(FILE, KEY, { kid: 'k1' }));
    expect(text.length).toBeGreaterThan(CIPHERTEXT_RANGE_FROM);
    const result = await expectSameAsWhole(codec, text);
    expect(result.failed).toBe(false);
    expect(Buffer.from(await codec.decryptFile(text, KEY)).equals(FILE)).toBe(true);
    expect(Buffer.from(await codec.decryptFile(Buffer.from(text), KEY)).equals(FILE)).toBe(true);
  });

  it('handed over, the bytes hold the file afterwards: no copy of the ciphertext was made', async () => {
    const text = JSON.stringify(await codec.encryptFile(FILE, KEY, { kid: 'k1' }));
    const body = Buffer.from(text);
    const file = await codec.decryptFile(body, KEY, { consumeInput: true });
    expect(Buffer.from(file).equals(FILE)).toBe(true);
    if (codec.backendName === 'node') expect(file.buffer).toBe(body.buffer);
    else expect(body.equals(Buffer.from(text))).toBe(true); // WebCrypto reads a copy
    // Not handed over: untouched.
    const kept = Buffer.from(text);
    await codec.decryptFile(kept, KEY);
    expect(kept.toString()).toBe(text);
  });

  it('opens npm jose envelopes (no kid, members in its order) as text', async () => {
    const payload = new TextEncoder().encode(`{"file":"${Buffer.from(FILE).toString('base64')}"}`);
    const text = JSON.stringify(await joseNpmEncrypt(KEY, payload));
    expect((await expectSameAsWhole(codec, text)).failed).toBe(false);
    expect(Buffer.from(await codec.decryptFile(text, KEY)).equals(FILE)).toBe(true);
  });

  it('on each side of the threshold, and across the decoder pieces, the same outcome', async () => {
    // A kid of the right length puts the text exactly at the threshold and one below.
    const base = JSON.stringify(await codec.encryptFile(bytesFrom(1, 36_000), KEY, { kid: '' }));
    for (const length of [CIPHERTEXT_RANGE_FROM - 1, CIPHERTEXT_RANGE_FROM]) {
      const kid = 'k'.repeat(length - base.length);
      const text = JSON.stringify(await codec.encryptFile(bytesFrom(1, 36_000), KEY, { kid }));
      expect(text.length).toBe(length);
      expect((await expectSameAsWhole(codec, text)).failed).toBe(false);
    }
    // The decoder reads 32 Ki characters a piece: exactly two pieces (36 852 bytes give 65 536
    // characters) and three, two and a bit, and many.
    for (const size of [36_852, 36_864, 55_278, 49_149, 98_307, 147_453, 147_459, 196_605, 2 ** 20 + 5]) {
      const text = JSON.stringify(await codec.encryptFile(bytesFrom(size, size), KEY));
      expect((await expectSameAsWhole(codec, text)).failed).toBe(false);
    }
  });

  it('tampering anywhere in the ciphertext is the one decryption error', async () => {
    const text = JSON.stringify(await codec.encryptFile(FILE, KEY));
    for (const at of [0, 70_000, -1]) {
      const tampered = withCiphertext(text, (value) => {
        const i = at < 0 ? value.length + at : at;
        const swapped = value[i] === 'A' ? 'Q' : 'A';
        return value.slice(0, i) + swapped + value.slice(i + 1);
      });
      const result = await expectSameAsWhole(codec, tampered);
      expect(result).toMatchObject({ failed: true, code: 'ERR_JWE_DECRYPTION_FAILED' });
    }
    const shortened = withCiphertext(text, (value) => value.slice(0, -4));
    expect(await expectSameAsWhole(codec, shortened)).toMatchObject({ code: 'ERR_JWE_DECRYPTION_FAILED' });
  });

  it('bad base64url in the ciphertext: the same error as the whole text, first piece or last', async () => {
    const text = JSON.stringify(await codec.encryptFile(FILE, KEY));
    const changes: Array<(value: string) => string> = [
      (v) => `${v.slice(0, 5)}+${v.slice(6)}`,
      (v) => `${v.slice(0, -5)}/${v.slice(-4)}`,
      (v) => `${v.slice(0, 70_000)} ${v.slice(70_001)}`,
      (v) => `${v}A`,
      (v) => `${v}AA=`,
      (v) => `${v.slice(0, 100)}é${v.slice(101)}`,
      (v) => `${v.slice(0, 100)}\u0142${v.slice(101)}`,
      (v) => `${v.slice(0, -1)}${v.at(-1) === 'B' ? 'C' : 'B'}`, // trailing bits, where the length leaves some
      // An escape JSON reads and the cut text must not, for a letter other than the one it replaces
      // (the ciphertext is random: an escaped copy of the same letter would be a valid envelope).
      (v) => `${v.slice(0, 10)}${v[10] === 'A' ? '\\u0042' : '\\u0041'}${v.slice(11)}`,
      (v) => `${v.slice(0, 10)}\\"${v.slice(11)}`,
    ];
    for (const change of changes) {
      const result = await expectSameAsWhole(codec, withCiphertext(text, change));
      expect(result.failed).toBe(true);
    }
  });

  it('bytes that are not UTF-8 inside or outside the ciphertext: the whole text’s error', async () => {
    const text = JSON.stringify(await codec.encryptFile(FILE, KEY, { kid: 'k1' }));
    const bytes = Buffer.from(text);
    const inCiphertext = Buffer.from(bytes);
    inCiphertext[text.indexOf('"ciphertext":"') + 20] = 0xff;
    const inKid = Buffer.from(bytes);
    inKid[text.indexOf('k1')] = 0xc3;
    for (const input of [inCiphertext, inKid]) {
      let expected: unknown;
      try {
        codec.readEnvelope(input);
      } catch (error) {
        expected = describeFailure(error);
      }
      const actual = describeFailure(await failureOf(() => codec.decryptDetailed(input, KEY)));
      expect(expected).toBeDefined();
      expect(actual).toEqual(expected);
    }
  });

  it('bad JSON and odd shapes around a large ciphertext: the same outcome as the whole text', async () => {
    const envelope = await codec.encryptFile(FILE, KEY, { kid: 'k1' });
    const { ciphertext, tag, iv } = envelope;
    const prot = envelope.protected!;
    const texts = [
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}"} x`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}"`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","ciphertext":"${ciphertext}","tag":"${tag}"}`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}","tag":"${tag}"}`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}","extra":1}`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}"}`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}","__proto__":{}}`,
      // The real ciphertext in an unprotected header, an empty one at the top: never opened.
      `{"protected":"${prot}","iv":"${iv}","header":{"ciphertext":"${ciphertext}"},"ciphertext":"","tag":"${tag}"}`,
      `{"protected":"${prot}","iv":"${iv}","unprotected":{"x":["${ciphertext}"]},"ciphertext":"${ciphertext}","tag":"${tag}"}`,
      // A member named x"ciphertext holding it, the real one empty.
      `{"protected":"${prot}","iv":"${iv}","x\\"ciphertext":"${ciphertext}","ciphertext":"","tag":"${tag}"}`,
      `{"kid":"\\"ciphertext\\":\\"","protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}"}`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext": "${ciphertext}","tag":"${tag}"}`,
      `  \n{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}"}\n`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}","encrypted_key":"x"}`,
      `{"protected":"${prot}","iv":"A${iv}","ciphertext":"${ciphertext}","tag":"${tag}"}`,
      `{"protected":"${prot}","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}A"}`,
      `{"protected":"e30","iv":"${iv}","ciphertext":"${ciphertext}","tag":"${tag}"}`,
      `["${ciphertext}"]`,
      `${prot}..${iv}.${ciphertext}.${tag}`,
    ];
    const outcomes = [];
    for (const text of texts) outcomes.push(await expectSameAsWhole(codec, text));
    // Besides being the same as the whole text's: the valid ones open, the header trick never does.
    const I = 'ERR_JWE_INVALID';
    const U = 'ERR_JWE_UNSUPPORTED';
    const D = 'ERR_JWE_DECRYPTION_FAILED';
    expect(outcomes.map((o) => (o.failed ? (o as { code?: string }).code : 'opened'))).toEqual([
      I,
      I,
      I,
      I,
      I,
      I,
      I,
      D,
      'opened',
      I,
      'opened',
      'opened',
      'opened',
      U,
      I,
      D,
      U,
      I,
      'opened',
    ]);
  });
});
