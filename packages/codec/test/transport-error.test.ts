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

describe('isJweError', () => {
  it('recognises a JweError from another copy of the codec (its CommonJS build) by its brand', async () => {
    const { createRequire } = await import('node:module');
    const cjs = createRequire(import.meta.url)('../dist/index.node.cjs') as typeof import('../src/index.js');
    const other = new cjs.JweError('ERR_JWE_INVALID', 'x');
    expect(other).not.toBeInstanceOf(JweError);
    expect(isJweError(other)).toBe(true);
    expect(cjs.isJweError(new JweError('ERR_JWE_INVALID', 'x'))).toBe(true);
  });

  it('and not another jwe-transport error, nor a look-alike', () => {
    expect(isJweError(new JweTransportError('ERR_JWE_INVALID', 'x'))).toBe(false);
    expect(isJweError(Object.assign(new Error('x'), { name: 'JweError', code: 'ERR_JWE_INVALID' }))).toBe(
      false,
    );
  });
});
