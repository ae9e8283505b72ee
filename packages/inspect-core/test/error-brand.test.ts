import { createRequire } from 'node:module';
import { JweTransportError } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { InspectError, isInspectError } from '../src/index.js';

// The CommonJS build (pnpm build first) is a second copy of the class, as a second install of the
// package or a mix of import and require gives an application.
const cjs = createRequire(import.meta.url)('../dist/index.cjs') as typeof import('../src/index.js');

describe('isInspectError', () => {
  it('recognises an InspectError from another copy of the package by its brand', () => {
    const other = new cjs.InspectError('ERR_NOT_AN_ENVELOPE', 'x');
    expect(other).not.toBeInstanceOf(InspectError);
    expect(isInspectError(other)).toBe(true);
    expect(cjs.isInspectError(new InspectError('ERR_KEY_INVALID', 'x'))).toBe(true);
  });

  it('and not another jwe-transport error that merely carries the name', () => {
    const lookalike = new JweTransportError('ERR_NOT_AN_ENVELOPE', 'x');
    lookalike.name = 'InspectError';
    expect(isInspectError(lookalike)).toBe(false);
    expect(isInspectError(new Error('x'))).toBe(false);
  });
});
