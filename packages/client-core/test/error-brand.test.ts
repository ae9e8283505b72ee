import { createRequire } from 'node:module';
import { isJweTransportError } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { isJweRequestError, isJweResponseError, JweRequestError, JweResponseError } from '../src/index.js';

// The CommonJS build (pnpm build first) is a second copy of the classes, as a second install of the
// package or a mix of import and require gives an application.
const cjs = createRequire(import.meta.url)('../dist/index.cjs') as typeof import('../src/index.js');

describe('error guards recognise errors from another copy of the package by their brand', () => {
  it('JweRequestError', () => {
    const other = new cjs.JweRequestError('ERR_JWE_BODY_UNSUPPORTED', 'x');
    expect(other).not.toBeInstanceOf(JweRequestError);
    expect(isJweRequestError(other)).toBe(true);
    expect(cjs.isJweRequestError(new JweRequestError('ERR_JWE_BODY_UNSUPPORTED', 'x'))).toBe(true);
    expect(isJweTransportError(other)).toBe(true);
  });

  it('JweResponseError', () => {
    const other = new cjs.JweResponseError('ERR_JWE_RESPONSE_NOT_ENCRYPTED', new Response('x'), 'x');
    expect(other).not.toBeInstanceOf(JweResponseError);
    expect(isJweResponseError(other)).toBe(true);
  });

  it('and nothing else: another class of the family, a look-alike, a plain error', () => {
    const request = new JweRequestError('ERR_JWE_BODY_UNSUPPORTED', 'x');
    expect(isJweResponseError(request)).toBe(false);
    expect(isJweRequestError(new JweResponseError('ERR_JWE_INVALID', new Response('x'), 'x'))).toBe(false);
    expect(
      isJweRequestError(
        Object.assign(new Error('x'), { name: 'JweRequestError', code: 'ERR_JWE_BODY_UNSUPPORTED' }),
      ),
    ).toBe(false);
    expect(isJweRequestError(null)).toBe(false);
  });
});
