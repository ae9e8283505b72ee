import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { webBackend } from '../src/backend/web.js';
import { parseFilePayload } from '../src/file-payload.js';
import { failureOf } from './support/errors.js';

/*
 * The WebCrypto back end reads a file payload's base64 through UTF-8 decoding (faster than Latin-1)
 * and falls back to Latin-1 for the error: whatever the bytes, the outcome must be the Latin-1
 * reading's, and the payload must be left whole when the fast decode fails.
 */

const latin1Outcome = (payload: Uint8Array, start: number, end: number) => {
  try {
    return Buffer.from(
      webBackend.decodeBase64(webBackend.latin1String(payload, start, end), 'The "file" member'),
    ).toString('hex');
  } catch (error) {
    return (error as Error).message;
  }
};

describe('file payloads on the WebCrypto back end', () => {
  const file = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) & 0xff));
  const good = file.toString('base64');
  const payloadOf = (content: Buffer) =>
    new Uint8Array(Buffer.concat([Buffer.from('{"file":"'), content, Buffer.from('"}')]));

  it('reads a canonical payload', () => {
    expect(Buffer.from(parseFilePayload(webBackend, payloadOf(Buffer.from(good)))).equals(file)).toBe(true);
  });

  it.each([
    [
      'a UTF-8 byte-order mark before the base64',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good.slice(3))]),
    ],
    [
      'a byte past 0x7F inside',
      Buffer.concat([Buffer.from(good.slice(0, 8)), Buffer.from([0xc3, 0xa9]), Buffer.from(good.slice(10))]),
    ],
    [
      'an invalid UTF-8 byte inside',
      Buffer.concat([Buffer.from(good.slice(0, 8)), Buffer.from([0xff]), Buffer.from(good.slice(9))]),
    ],
    ['a space inside', Buffer.from(`${good.slice(0, 8)} ${good.slice(9)}`)],
  ])('%s: refused with the error the Latin-1 reading gives', async (_, content) => {
    const payload = payloadOf(content);
    const expected = latin1Outcome(payload, 9, payload.length - 2);
    const error = (await failureOf(() => parseFilePayload(webBackend, payload))) as Error & { code: string };
    expect(error.code).toBe('ERR_JWE_INVALID');
    expect(error.message).toBe(expected);
  });

  it('a quote or backslash inside takes the JSON reading, as before', async () => {
    expect(good).toContain('/');
    const slashEscaped = payloadOf(Buffer.from(good.replaceAll('/', '\\/')));
    expect(Buffer.from(parseFilePayload(webBackend, slashEscaped)).equals(file)).toBe(true);
    const quoted = payloadOf(Buffer.from(`${good.slice(0, 8)}"${good.slice(9)}`));
    const error = (await failureOf(() => parseFilePayload(webBackend, quoted))) as Error & { code: string };
    expect(error.code).toBe('ERR_JWE_INVALID');
    expect(error.message).toMatch(/not JSON|not valid JSON/);
  });
});
