import { isJweTransportError, JweTransportError } from '@jwe-transport/codec';
import { AuthError, createServiceClient, TranscriptionError } from '@jwe-transport/service-client';
import { expect, it } from 'vitest';

it('AuthError and TranscriptionError are JweTransportErrors that keep their own codes', () => {
  const auth = new AuthError('ERR_AUTH_REFRESH_FAILED', 'refused', { status: 401 });
  const transcription = new TranscriptionError('ERR_UPLOAD_GRANT_EXPIRED', 'expired', { status: 403 });
  for (const [error, name, code] of [
    [auth, 'AuthError', 'ERR_AUTH_REFRESH_FAILED'],
    [transcription, 'TranscriptionError', 'ERR_UPLOAD_GRANT_EXPIRED'],
  ] as const) {
    expect(error).toBeInstanceOf(JweTransportError);
    expect(isJweTransportError(error)).toBe(true);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.status).toBeDefined();
  }
});

it('a refused login reaches the caller as a JweTransportError with its code', async () => {
  const client = createServiceClient({
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'nobody',
    clientSecret: 'not-a-secret',
  });
  const error = await client.requestUploadGrant('t-1').catch((caught: unknown) => caught);
  expect(isJweTransportError(error)).toBe(true);
  expect((error as AuthError).code).toBe('ERR_AUTH_UNREACHABLE');
});
