import { describe, expect, it } from 'vitest';
import {
  decryptJson,
  encryptJson,
  isJweError,
  isJweTransportError,
  JweError,
  JweTransportError,
} from '../src/index.js';

const KEY = '0123456789abcdef';

describe('JweTransportError', () => {
  it('is the base of the codec errors, with their code', async () => {
    const envelope = await encryptJson({ a: 1 }, KEY);
    const error = await decryptJson({ ...envelope, tag: 'AAAAAAAAAAAAAAAAAAAAAA' }, KEY).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JweError);
    expect(error).toBeInstanceOf(JweTransportError);
    expect(isJweTransportError(error)).toBe(true);
    expect(isJweError(error)).toBe(true);
    expect((error as JweError).code).toBe('ERR_JWE_DECRYPTION_FAILED');
    expect((error as JweError).name).toBe('JweError');
  });

  it('is recognised across bundles by its brand, not by class identity alone', () => {
    const foreign = Object.defineProperty(new Error('x'), Symbol.for('@jwe-transport/error'), {
      value: true,
    });
    expect(isJweTransportError(foreign)).toBe(true);
    expect(isJweTransportError(new Error('x'))).toBe(false);
    expect(isJweTransportError(null)).toBe(false);
    expect(isJweTransportError({ code: 'ERR_JWE_INVALID' })).toBe(false);
  });
});
