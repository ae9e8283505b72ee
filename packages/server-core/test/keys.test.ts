import { isJweError, JweError } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { JweServer } from '../src/index.js';

describe('key configuration errors', () => {
  it('names the kid and says when its key is undefined or empty, never showing a key', () => {
    const env: Record<string, string | undefined> = {};
    expect(() => new JweServer({ keys: { 'prod-2025': env.JWE_KEY as string } })).toThrow(
      "jwe: kid 'prod-2025': the key is undefined; is the environment variable set?",
    );
    expect(() => new JweServer({ keys: { 'prod-2025': '' } })).toThrow(
      "jwe: kid 'prod-2025': the key is empty; is the environment variable set?",
    );
    let message = '';
    try {
      new JweServer({ keys: { good: 'abcdefghijklmnop', 'kid-2': 'secret-but-short' + 'x' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^jwe: kid 'kid-2': The shared key is 17 bytes/);
    expect(message).not.toContain('secret-but-short');
  });

  it("raises the codec's ERR_KEY_INVALID for an unusable key, as the clients do", () => {
    for (const key of ['', 'short', undefined, new Uint8Array(5)]) {
      let caught: unknown;
      try {
        new JweServer({ keys: { k: key as string } });
      } catch (error) {
        caught = error;
      }
      expect(isJweError(caught)).toBe(true);
      expect(caught).toBeInstanceOf(JweError);
      expect(caught).toMatchObject({ code: 'ERR_KEY_INVALID' });
    }
  });

  it('refuses an empty key map and a defaultKid that is not in it', () => {
    expect(() => new JweServer({ keys: {} })).toThrow(/non-empty/);
    expect(() => new JweServer({ keys: { a: 'abcdefghijklmnop' }, defaultKid: 'b' })).toThrow(
      /"defaultKid" 'b'/,
    );
  });
});
