import { JweError } from '@jwe-transport/codec';
import { jwe, jweUpload } from '@jwe-transport/express-middleware';
import { describe, expect, it } from 'vitest';

const SECRET = 'abcdefghijklmnop';

describe('key configuration errors', () => {
  it.each([
    ['undefined', undefined, `jwe: kid 'prod-2025': the key is undefined; is the environment variable set?`],
    ['empty', '', `jwe: kid 'prod-2025': the key is empty; is the environment variable set?`],
    ['null', null, `jwe: kid 'prod-2025': the key is null; is the environment variable set?`],
  ])('name the kid whose key is %s', (_what, key, message) => {
    const keys = { 'dev-1': SECRET, 'prod-2025': key as unknown as string };
    // The codec's ERR_KEY_INVALID, as on every server and client.
    expect(() => jwe({ keys })).toThrow(expect.objectContaining({ code: 'ERR_KEY_INVALID', message }));
    expect(() => jweUpload({ keys })).toThrow(expect.objectContaining({ code: 'ERR_KEY_INVALID', message }));
  });

  it('name the kid and give the length, never the key, when a key has the wrong size', () => {
    const short = 'sh0rt-k3y-v4lue';
    let thrown: unknown;
    try {
      jwe({ keys: { 'dev-1': SECRET, 'prod-2025': short } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(JweError);
    expect(thrown).toMatchObject({ code: 'ERR_KEY_INVALID' });
    const { message } = thrown as Error;
    expect(message).toMatch(
      /^jwe: kid 'prod-2025': The shared key is 15 bytes of UTF-8; it must be exactly 16 bytes/,
    );
    expect(message).not.toContain(short);
    expect(() => jwe({ keys: { raw: new Uint8Array(16) } })).toThrow(
      "jwe: kid 'raw': a raw key must be 32 bytes, this one is 16 bytes.",
    );
    expect(() => jwe({ keys: { num: 1234 as unknown as string } })).toThrow(
      "jwe: kid 'num': the key must be a 16-character string or 32 bytes, not number.",
    );
  });
});
