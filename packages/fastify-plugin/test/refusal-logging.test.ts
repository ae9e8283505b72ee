import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { jwe } from '@jwe-transport/fastify-plugin';
import {
  expectSealFailureError,
  expectUnsealedAnswer,
  LOGGING_KEY as KEY,
  SEAL_FAILURE_DETAILS,
  SEAL_FAILURE_PLAINTEXT,
  UNSEALABLE,
  WRONG_KEY as WRONG,
  WRONG_KEY_DETAILS,
  wrongKeyRequest,
} from '@jwe-transport/test-support/server-conformance/logger';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

/** A Fastify app whose pino logger writes JSON lines into `lines`. */
async function start(
  lines: Record<string, unknown>[],
  options: Parameters<typeof jwe>[1] = { keys: { 'partner-7': KEY } },
): Promise<{ app: FastifyInstance; url: string }> {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  await app.register(jwe, options);
  app.get('/answer', async () => SEAL_FAILURE_PLAINTEXT);
  app.post('/echo', async (request) => request.body);
  app.post('/fail', async () => {
    throw new Error('route broke');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

describe('Fastify key configuration', () => {
  it("raises the codec's ERR_KEY_INVALID for an unusable key, as every server and client does", async () => {
    const app = Fastify();
    await expect(app.register(jwe, { keys: { k: '' } }).ready()).rejects.toMatchObject({
      name: 'JweError',
      code: 'ERR_KEY_INVALID',
    });
  });
});

describe('Fastify refusals through request.log', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('logs a wrong-key request at info with code, status and kid, without a stack or the key', async () => {
    const lines: Record<string, unknown>[] = [];
    const started = await start(lines);
    app = started.app;
    const { url, ...init } = await wrongKeyRequest(`${started.url}/echo`);
    const response = await fetch(url, init);
    expect(response.status).toBe(400);
    const refusals = lines.filter((line) => typeof line.msg === 'string' && line.msg.startsWith('jwe:'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      level: 30,
      ...WRONG_KEY_DETAILS,
      reqId: expect.any(String),
    });
    expect(refusals[0]).not.toHaveProperty('err');
    expect(JSON.stringify(lines)).not.toContain(WRONG);
  });

  it("keeps plain Fastify's own client-error log line, and logs a 5xx at error with its stack", async () => {
    const lines: Record<string, unknown>[] = [];
    const started = await start(lines);
    app = started.app;
    const unsupported = await fetch(`${started.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'text/xml' },
      body: '<a/>',
    });
    expect(unsupported.status).toBe(415);
    expect(
      lines.some(
        (line) =>
          line.level === 30 && (line.err as { code?: string })?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      ),
    ).toBe(true);
    const failed = await fetch(`${started.url}/fail`, { method: 'POST' });
    expect(failed.status).toBe(500);
    const error = lines.find((line) => line.level === 50);
    expect(error).toMatchObject({ status: 500, code: 'ERR_INTERNAL' });
    expect((error?.err as { stack?: string } | undefined)?.stack).toContain('route broke');
  });

  it('logs an answer it could not seal at error with the cause, never the key or the plaintext', async () => {
    const lines: Record<string, unknown>[] = [];
    const started = await start(lines, UNSEALABLE);
    app = started.app;
    await expectUnsealedAnswer(await fetch(`${started.url}/answer`));
    const failures = lines.filter((line) => line.level === 50);
    expect(failures).toEqual([
      expect.objectContaining({
        ...SEAL_FAILURE_DETAILS,
        msg: 'jwe: request failed (500 ERR_JWE_ENCRYPT_FAILED)',
        reqId: expect.any(String),
      }),
    ]);
    const err = failures[0]!.err as { message: string; stack: string; code: string };
    expect(err.code).toBe('ERR_JWE_ENCRYPT_FAILED');
    expectSealFailureError(err);
    expect(JSON.stringify(lines)).not.toContain(SEAL_FAILURE_PLAINTEXT.secret);
  });
});
