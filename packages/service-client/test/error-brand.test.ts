import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AuthError, isAuthError } from '../src/auth/errors.js';
import { isStoreError, StoreError } from '../src/store/errors.js';
import { isTranscriptionError, TranscriptionError } from '../src/transcription/errors.js';
import { isWebhookError, WebhookError } from '../src/webhooks/errors.js';

// The CommonJS builds (pnpm build first) are a second copy of the classes, as a second install of
// the package or a mix of import and require gives an application.
const require = createRequire(import.meta.url);
const cjs = require('../dist/index.cjs') as typeof import('../src/index.js');
const cjsRedis = require('../dist/redis.cjs') as typeof import('../src/redis/index.js');

describe('error guards recognise errors from another copy of the package by their brand', () => {
  it.each([
    ['AuthError', new cjs.AuthError('ERR_AUTH_LOGIN_FAILED', 'x'), AuthError, isAuthError],
    ['StoreError', new cjsRedis.StoreError('ERR_STORE_UNREACHABLE', 'x'), StoreError, isStoreError],
    [
      'TranscriptionError',
      new cjs.TranscriptionError('ERR_RESULT_FAILED', 'x'),
      TranscriptionError,
      isTranscriptionError,
    ],
    ['WebhookError', new cjs.WebhookError('webhook.replayed', 'x'), WebhookError, isWebhookError],
  ] as const)('%s', (_name, other, own, guard) => {
    expect(other).not.toBeInstanceOf(own);
    expect((guard as (value: unknown) => boolean)(other)).toBe(true);
  });

  it('and not each other, a look-alike or a plain error', () => {
    const auth = new AuthError('ERR_AUTH_LOGIN_FAILED', 'x');
    expect(isStoreError(auth)).toBe(false);
    expect(isTranscriptionError(auth)).toBe(false);
    expect(isWebhookError(auth)).toBe(false);
    expect(isAuthError(new StoreError('ERR_STORE_UNREACHABLE', 'x'))).toBe(false);
    expect(
      isAuthError(Object.assign(new Error('x'), { name: 'AuthError', code: 'ERR_AUTH_LOGIN_FAILED' })),
    ).toBe(false);
  });
});
