import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { backends } from './support/backends.js';
import { patternBytes, toHex, utf8 } from './support/bytes.js';
import { expectJweError } from './support/errors.js';

const KEY = 'k3y-f0r-t3st1ng!';

describe.each(backends)('JSON and file payloads, $name back end', ({ codec }) => {
  const rawText = async (envelope: Parameters<typeof codec.decrypt>[0]) =>
    new TextDecoder().decode(await codec.decrypt(envelope, KEY));

  it('encryptJson encrypts the JSON text of the value; decryptJson parses it back', async () => {
    const value = { aadhaar_number: '999941057058', nested: { list: [1, 'two', null, true] } };
    const envelope = await codec.encryptJson(value, KEY, { kid: 'k' });
    expect(await rawText(envelope)).toBe(JSON.stringify(value));
    expect(await codec.decryptJson(envelope, KEY)).toEqual(value);
    expect(envelope.kid).toBe('k');
  });

  it('bad arguments reject the returned promise instead of throwing synchronously', async () => {
    const calls = [
      () => codec.encryptJson(undefined, KEY),
      () => codec.encryptFile('not bytes' as unknown as Uint8Array, KEY),
      () => codec.encrypt(42 as unknown as string, KEY),
    ];
    for (const call of calls) {
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = call();
      }).not.toThrow();
      await expect(pending).rejects.toThrow(TypeError);
    }
  });

  it('encryptJson of something without a JSON form is a TypeError', async () => {
    await expect(async () => codec.encryptJson(undefined, KEY)).rejects.toThrow(TypeError);
    await expect(async () => codec.encryptJson(() => 1, KEY)).rejects.toThrow(TypeError);
  });

  it('decryptJson refuses plaintext that is not JSON or not UTF-8', async () => {
    await expectJweError(
      async () => codec.decryptJson(await codec.encrypt('not json', KEY), KEY),
      'ERR_JWE_INVALID',
    );
    await expectJweError(
      async () => codec.decryptJson(await codec.encrypt(Uint8Array.from([0x22, 0xc3, 0x22]), KEY), KEY),
      'ERR_JWE_INVALID',
    );
  });

  it.each([0, 1, 2, 3, 100, 4096])(
    'encryptFile of %d bytes: plaintext is {"file":"<padded standard base64>"} and decryptFile returns the bytes',
    async (length) => {
      const bytes = patternBytes(length, length + 1);
      const envelope = await codec.encryptFile(bytes, KEY);
      expect(await rawText(envelope)).toBe(`{"file":"${Buffer.from(bytes).toString('base64')}"}`);
      expect(toHex(await codec.decryptFile(envelope, KEY))).toBe(toHex(bytes));
    },
  );

  it('a file whose base64 has "+" and "/" survives (standard alphabet inside the payload)', async () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0xfe, 0xef]);
    const envelope = await codec.encryptFile(bytes, KEY);
    expect(await rawText(envelope)).toMatch(/[+/]/);
    expect(toHex(await codec.decryptFile(envelope, KEY))).toBe(toHex(bytes));
  });

  it.each([
    ['with a space after the colon', (b: string) => `{"file": "${b}"}`],
    ['pretty-printed', (b: string) => `{\n  "file" : "${b}"\n}\n`],
    ['with an escaped slash', (b: string) => `{"file":"${b.replaceAll('/', '\\/')}"}`],
  ])('decryptFile reads any JSON spelling: %s', async (_name, spell) => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 1, 2, 3, 4]);
    const b64 = Buffer.from(bytes).toString('base64');
    const envelope = await codec.encrypt(spell(b64), KEY);
    expect(toHex(await codec.decryptFile(envelope, KEY))).toBe(toHex(bytes));
  });

  it.each([
    ['an extra member', '{"file":"QUFB","name":"a.pdf"}'],
    ['no file member', '{"data":"QUFB"}'],
    ['a non-string file', '{"file":123}'],
    ['an array', '["QUFB"]'],
    ['missing padding', '{"file":"QUE"}'],
    ['URL-safe alphabet', '{"file":"-_-_"}'],
    ['whitespace inside the base64', '{"file":"QU FB"}'],
    ['non-zero trailing bits', '{"file":"QR=="}'],
    ['a misplaced pad', '{"file":"Q=FB"}'],
    ['a JSON escape that is not base64', '{"file":"QUF\\n"}'],
    ['duplicate file members', '{"file":"QUFB","file":"QUFC"}'],
    ['a quote both opening and closing the member', '{"file":"}'],
    ['text after the closing brace', '{"file":"QUFB"}"}'],
    ['not JSON', 'QUFB'],
  ])('decryptFile refuses a payload with %s', async (_name, payload) => {
    const envelope = await codec.encrypt(payload, KEY);
    await expectJweError(() => codec.decryptFile(envelope, KEY), 'ERR_JWE_INVALID');
  });

  it('a file payload with any byte from 0x80 to 0xFF inside its base64 is refused', async () => {
    // The fast path reads the payload as Latin-1; every high byte must still be rejected.
    for (let byte = 0x80; byte <= 0xff; byte++) {
      const payload = Uint8Array.from([...utf8('{"file":"QUFB'), byte, ...utf8('UFB"}')]);
      await expectJweError(
        async () => codec.decryptFile(await codec.encrypt(payload, KEY), KEY),
        'ERR_JWE_INVALID',
      );
    }
  });

  it('encrypt and encryptFile refuse the wrong plaintext types', async () => {
    await expect(async () => codec.encrypt(42 as never, KEY)).rejects.toThrow(TypeError);
    await expect(async () => codec.encryptFile('text' as never, KEY)).rejects.toThrow(TypeError);
  });

  it('strings are encrypted as UTF-8', async () => {
    const text = 'नमस्ते, 你好, émigré, 🎉';
    const envelope = await codec.encrypt(text, KEY);
    expect(toHex(await codec.decrypt(envelope, KEY))).toBe(toHex(utf8(text)));
  });
});
