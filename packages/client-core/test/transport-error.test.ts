// client-core's errors are JweTransportErrors: one catch and one `code` for every package.
import { isJweTransportError, JweTransportError } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { createJweClient } from '../src/adapter/index.js';
import { JweRequestError, JweResponseError, JweUploadError } from '../src/index.js';

describe('client-core errors', () => {
  it('a refused request body is a JweRequestError and a JweTransportError, code kept', async () => {
    const client = createJweClient({ key: 'k3y-0f-16-chars!' });
    const form = new FormData();
    form.set('note', 'text only');
    const error = await client.seal(form).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(JweRequestError);
    expect(error).toBeInstanceOf(JweTransportError);
    expect(isJweTransportError(error)).toBe(true);
    expect((error as JweRequestError).code).toBe('ERR_JWE_FORM_UNSUPPORTED');
    expect((error as JweRequestError).expose).toBe(false);
  });

  it('a plain answer to a sealed request is a JweResponseError and a JweTransportError', async () => {
    const client = createJweClient({ key: 'k3y-0f-16-chars!' });
    const answer = new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } });
    const error = await client.openResponse(answer, { method: 'POST', sealed: true }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(JweResponseError);
    expect(isJweTransportError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ERR_JWE_RESPONSE_NOT_ENCRYPTED', status: 200, type: 'encryption' });
  });

  it('JweUploadError keeps ERR_JWE_UPLOAD_INTERRUPTED and bytesSent', () => {
    const error = new JweUploadError('cut off', 42);
    expect(isJweTransportError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'ERR_JWE_UPLOAD_INTERRUPTED',
      bytesSent: 42,
      name: 'JweUploadError',
    });
  });
});
