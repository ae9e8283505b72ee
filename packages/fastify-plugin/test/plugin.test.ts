import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import multipart from '@fastify/multipart';
import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { jwe } from '@jwe-transport/fastify-plugin';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

const KEY = 'abcdefghijklmnop';
let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function listen(instance: FastifyInstance): Promise<string> {
  app = instance;
  await instance.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(instance.server.address() as AddressInfo).port}`;
}

const sealedPost = async (url: string, value: unknown, contentType = 'application/json') =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-encryption': 'JWE' },
    body: JSON.stringify(await encryptJson(value, KEY, { kid: 'k' })),
  });

describe('the Fastify plugin', () => {
  it('keeps the plugin to its own context when registered inside one', async () => {
    const instance = Fastify();
    await instance.register(async (scoped) => {
      await scoped.register(jwe, { keys: { k: KEY } });
      scoped.post('/sealed', async (request) => request.body);
    });
    instance.post('/outside', async (request) => request.body);
    const url = await listen(instance);
    const inside = await sealedPost(`${url}/sealed`, { a: 1 });
    expect(await decryptJson(await inside.json(), KEY)).toEqual({ a: 1 });
    const outside = await sealedPost(`${url}/outside`, { a: 1 });
    expect(outside.headers.get('x-encryption')).toBeNull();
    expect(await outside.json()).toHaveProperty('ciphertext');
  });

  it('refuses an encrypted body sent with another content type instead of passing it on', async () => {
    const instance = Fastify();
    await instance.register(jwe, { keys: { k: KEY } });
    instance.post('/echo', async (request) => ({ body: request.body }));
    const url = await listen(instance);
    const response = await sealedPost(`${url}/echo`, { a: 1 }, 'text/plain');
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: { code: 'ERR_JWE_INVALID' } });
  });

  it('keeps the key out of reach of handlers and of a logger that prints the whole request', async () => {
    const instance = Fastify();
    await instance.register(jwe, { keys: { k: KEY } });
    instance.post('/echo', async (request) => {
      const printed = inspect(request, { depth: 8, showHidden: true });
      // The request does hold its sealing state (the answer below is sealed), just not readably.
      return { printedKey: printed.includes(KEY), info: request.jwe };
    });
    const url = await listen(instance);
    const response = await sealedPost(`${url}/echo`, { a: 1 });
    expect(response.headers.get('x-encryption')).toBe('JWE');
    expect(await decryptJson(await response.json(), KEY)).toEqual({
      printedKey: false,
      info: expect.objectContaining({ encrypted: true, kid: 'k', encryptsResponse: true }),
    });
  });

  it('with errorHandler: false, leaves JweHttpErrors to Fastify with their status and code', async () => {
    const instance = Fastify();
    await instance.register(jwe, { keys: { k: KEY }, errorHandler: false });
    instance.post('/echo', async (request) => request.body);
    const url = await listen(instance);
    const response = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body: '{"iv":"x"}',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: 400, code: 'ERR_JWE_INVALID' });
  });

  it('takes a multipart upload into memory on a route without dest', async () => {
    const instance = Fastify();
    await instance.register(multipart);
    await instance.register(jwe, { keys: { k: KEY } });
    instance.post('/upload', { config: { jwe: { upload: { limit: '1mb' } } } }, async (request) => ({
      size: request.jweFile?.buffer?.length,
      name: request.jweFile?.originalname,
    }));
    const url = await listen(instance);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(1000)]), 'a.bin');
    const response = await fetch(`${url}/upload`, { method: 'POST', body: form });
    expect(await response.json()).toEqual({ size: 1000, name: 'a.bin' });
    const big = new FormData();
    big.set('file', new Blob([new Uint8Array(2 * 2 ** 20)]), 'b.bin');
    const refused = await fetch(`${url}/upload`, { method: 'POST', body: big });
    expect(refused.status).toBe(413);
  });

  it.each([
    ['before', true],
    ['after', false],
  ])(
    "leaves a route's 500 to an error handler the application set %s registering the plugin, sealed",
    async (_when, before) => {
      const seen: unknown[] = [];
      const instance = Fastify();
      const handler = (
        error: Error,
        _request: unknown,
        reply: { code(n: number): { send(b: unknown): unknown } },
      ) => {
        seen.push(error);
        return reply.code(503).send({ mine: error.message });
      };
      if (before) instance.setErrorHandler(handler);
      await instance.register(jwe, { keys: { k: KEY } });
      if (!before) instance.setErrorHandler(handler);
      instance.post('/fail', async () => {
        throw new Error('route broke');
      });
      instance.post('/echo', async (request) => request.body);
      const url = await listen(instance);
      const failed = await sealedPost(`${url}/fail`, { a: 1 });
      expect(failed.status).toBe(503);
      expect(failed.headers.get('x-encryption')).toBe('JWE');
      expect(await decryptJson(await failed.json(), KEY)).toEqual({ mine: 'route broke' });
      expect(seen).toEqual([expect.objectContaining({ message: 'route broke' })]);
      // The plugin's own refusal is answered by the plugin, not handed to the application's handler.
      const refused = await fetch(`${url}/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
        body: '{"iv":"x"}',
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: 'ERR_JWE_INVALID' } });
      expect(seen).toHaveLength(1);
    },
  );
});
