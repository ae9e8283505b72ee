// The decrypted answer is built with whatever `Response` class the process has. One that refuses
// to build it must not surface as a bare platform error: the caller gets a JweResponseError that
// says what happened. No shipped runtime refuses a plain status-and-headers init any more (the
// Hono 1.x case is in ky-plugin/test/hono-process.test.ts), so the refusing class is the test's own.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, isJweResponseError, type JweResponseError } from './helpers/imports.js';
import { type Service, SHARED_KEY, startService } from './helpers/service.js';

const NativeResponse = globalThis.Response;

class RefusingResponse extends NativeResponse {
  constructor(body?: BodyInit | null, init?: ResponseInit) {
    if (body instanceof Uint8Array) throw new TypeError('immutable');
    super(body, init);
  }
}

describe('a Response class that refuses the answer', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());
  afterEach(() => {
    globalThis.Response = NativeResponse;
  });

  async function refusal(path: string, init: RequestInit): Promise<JweResponseError> {
    const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'k1' });
    globalThis.Response = RefusingResponse;
    const error = await jweFetch(`${service.url}${path}`, init).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    globalThis.Response = NativeResponse;
    expect(isJweResponseError(error)).toBe(true);
    return error as JweResponseError;
  }

  it('is a JweResponseError that says the answer was decrypted and what the class threw', async () => {
    const error = await refusal('/built?kid=svc', { method: 'POST', body: '{"secret":"s3cr3t-plaintext"}' });
    expect(error.code).toBe('ERR_JWE_RESPONSE_UNBUILDABLE');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(
      /^The 200 response to POST http:\/\/127\.0\.0\.1:\d+\/built was decrypted, but/,
    );
    expect(error.message).toContain('(TypeError: immutable)');
    expect(error.message).toContain('replaced the global Response');
    expect(error.message).not.toContain('s3cr3t');
    expect((error.cause as Error).message).toBe('immutable');
  });

  it('is the same error for a plain answer read to look for an envelope', async () => {
    const error = await refusal('/plain?reply=plain', { method: 'GET' });
    expect(error.code).toBe('ERR_JWE_RESPONSE_UNBUILDABLE');
    expect(error.message).toMatch(/^The 200 response to GET http:\/\/127\.0\.0\.1:\d+\/plain was read, but/);
  });
});
