import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import {
  captureLogger as capture,
  expectSealFailureLogged,
  expectUnsealedAnswer,
  expectWrongKeyRefusalLogged,
  LOGGING_KEY as KEY,
  SEAL_FAILURE_PLAINTEXT,
  UNSEALABLE,
  wrongKeyRequest,
} from '@jwe-transport/test-support/server-conformance/logger';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';

describe('Hono key configuration', () => {
  it("raises the codec's ERR_KEY_INVALID for an unusable key, as every server and client does", () => {
    expect(() => jwe({ keys: { k: 'short' } })).toThrow(
      expect.objectContaining({ name: 'JweError', code: 'ERR_KEY_INVALID' }),
    );
  });
});

describe('Hono refusals through logger/onReject', () => {
  it('logs a wrong-key request at info with code, status and kid (no stack, no key), and calls onReject', async () => {
    const { lines, logger } = capture();
    const rejected: unknown[] = [];
    const app = new Hono();
    app.use(
      jwe({ keys: { 'partner-7': KEY }, logger, onReject: (_error, refusal) => rejected.push(refusal) }),
    );
    app.post('/echo', async (c) => c.json(await c.req.json()));
    const { url, ...init } = await wrongKeyRequest('/echo');
    const response = await app.request(url, init);
    expect(response.status).toBe(400);
    expectWrongKeyRefusalLogged(lines);
    expect(rejected).toEqual([
      expect.objectContaining({ code: 'ERR_JWE_DECRYPTION_FAILED', kid: 'partner-7' }),
    ]);
  });

  it('answers malformed plain JSON with 400 entity.parse.failed (not a 500), and reports route 5xx at error', async () => {
    const { lines, logger } = capture();
    const app = new Hono();
    app.use(jwe({ keys: { k: KEY }, logger }));
    app.onError(jweErrorHandler({ logger }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    app.post('/fail', () => {
      throw new Error('route broke');
    });
    const bad = await app.request('/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{bad',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { type: 'entity.parse.failed', code: 'ERR_BODY_PARSE' },
    });
    const failed = await app.request('/fail', { method: 'POST' });
    expect(failed.status).toBe(500);
    expect(lines.map((line) => [line.level, line.details.code])).toEqual([
      ['info', 'ERR_BODY_PARSE'],
      ['error', 'ERR_INTERNAL'],
    ]);
    expect((lines[1]!.details.err as Error).message).toBe('route broke');
  });

  it('reports an answer it could not seal (c.json or a built Response) at error with the cause, and calls onReject', async () => {
    const { lines, logger } = capture();
    const rejected: unknown[] = [];
    const app = new Hono();
    app.use(jwe({ ...UNSEALABLE, logger, onReject: (_error, refusal) => rejected.push(refusal) }));
    app.get('/answer', (c) => c.json(SEAL_FAILURE_PLAINTEXT));
    app.get('/built', () => Response.json(SEAL_FAILURE_PLAINTEXT));
    const running = await serveFetch(app.fetch);
    try {
      await expectUnsealedAnswer(await fetch(`${running.url}/answer`));
      expectSealFailureLogged(lines);
      await expectUnsealedAnswer(await fetch(`${running.url}/built`));
      expect(lines.map((line) => [line.details.path, line.details.code])).toEqual([
        ['/answer', 'ERR_JWE_ENCRYPT_FAILED'],
        ['/built', 'ERR_JWE_ENCRYPT_FAILED'],
      ]);
      expect(rejected).toEqual([
        expect.objectContaining({ status: 500, code: 'ERR_JWE_ENCRYPT_FAILED' }),
        expect.objectContaining({ status: 500, code: 'ERR_JWE_ENCRYPT_FAILED' }),
      ]);
    } finally {
      await running.close();
    }
  });
});
