import { once } from 'node:events';
import type { Server } from 'node:http';
import { connect, createServer as createHttp2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/hono-middleware';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { afterEach, describe, expect, it } from 'vitest';

const KEY = 'abcdefghijklmnop';
let server: Server | undefined;

afterEach(async () => {
  const running = server;
  server = undefined;
  if (running) await new Promise<void>((done) => running.close(() => done()));
});

function listen(app: Hono): Promise<string> {
  return new Promise((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
      resolve(`http://127.0.0.1:${info.port}`),
    ) as Server;
  });
}

const sealedPost = async (url: string, value: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
    body: JSON.stringify(await encryptJson(value, KEY, { kid: 'k' })),
  });

describe('the Hono middleware', () => {
  it('gives c.req.text() the exact plaintext and seals answers built without c.json', async () => {
    const app = new Hono();
    app.use(jwe({ keys: { k: KEY } }));
    app.post(
      '/text',
      async (c) =>
        new Response(JSON.stringify({ text: await c.req.text() }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    const url = await listen(app);
    const response = await sealedPost(`${url}/text`, { a: [1, 2] });
    expect(response.headers.get('x-encryption')).toBe('JWE');
    expect(await decryptJson(await response.json(), KEY)).toEqual({ text: '{"a":[1,2]}' });
  });

  it('gives c.req.json(), text() and arrayBuffer() the same plaintext in one handler, and marks the sealed answer Vary', async () => {
    const app = new Hono();
    app.use(jwe({ keys: { k: KEY } }));
    app.post('/all', async (c) => {
      const json = await c.req.json();
      const text = await c.req.text();
      const bytes = new TextDecoder().decode(await c.req.arrayBuffer());
      return c.json({ json, text, bytes });
    });
    const url = await listen(app);
    const response = await sealedPost(`${url}/all`, { é: 'ü', n: [1] });
    expect(response.headers.get('x-encryption')).toBe('JWE');
    expect(response.headers.get('vary')).toBe('X-Encryption');
    expect(await decryptJson(await response.json(), KEY)).toEqual({
      json: { é: 'ü', n: [1] },
      text: '{"é":"ü","n":[1]}',
      bytes: '{"é":"ü","n":[1]}',
    });
  });

  it('answers route errors through jweErrorHandler with a code, sealed for encrypted requests, and reports them', async () => {
    const reported: unknown[] = [];
    const app = new Hono();
    app.use(jwe({ keys: { k: KEY } }));
    app.onError(jweErrorHandler({ onError: (error) => reported.push(error) }));
    app.post('/fail', () => {
      throw new Error('secret detail');
    });
    const url = await listen(app);
    const response = await sealedPost(`${url}/fail`, {});
    expect(response.status).toBe(500);
    expect(await decryptJson(await response.json(), KEY)).toEqual({
      error: { type: 'server.error', code: 'ERR_INTERNAL', message: 'Internal Server Error' },
    });
    expect(reported).toHaveLength(1);
  });

  it('sets c.var.jwe for plain requests too, and their answers stay plain', async () => {
    const app = new Hono();
    app.use(jwe({ keys: { k: KEY } }));
    app.get('/info', (c) => c.json(c.get('jwe')));
    const url = await listen(app);
    const response = await fetch(`${url}/info`);
    expect(response.headers.get('x-encryption')).toBeNull();
    expect(await response.json()).toEqual({ encrypted: false, encryptsResponse: false });
  });

  it('opens the body after a middleware that touched c.req.raw (its abort signal) before it', async () => {
    const app = new Hono();
    app.use(async (c, next) => {
      // Makes @hono/node-server build its Web Request, which reads the Node request from then on.
      expect(c.req.raw.signal.aborted).toBe(false);
      await next();
    });
    app.use(jwe({ keys: { k: KEY }, limit: '8mb' }));
    app.post('/echo', async (c) => c.json({ length: (await c.req.json()).a.length, kid: c.get('jwe').kid }));
    const url = await listen(app);
    // Larger than the Web Request's stream buffers before it pauses the Node request.
    const response = await sealedPost(`${url}/echo`, { a: 'b'.repeat(5_000_000) });
    expect(response.status).toBe(200);
    expect(await decryptJson(await response.json(), KEY)).toEqual({ length: 5_000_000, kid: 'k' });
  });

  it('opens the body a middleware before it has already begun to read (through a clone of c.req.raw)', async () => {
    const app = new Hono();
    let seen = '';
    app.use(async (c, next) => {
      seen = await c.req.raw.clone().text();
      await next();
    });
    app.use(jwe({ keys: { k: KEY } }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    const url = await listen(app);
    const response = await sealedPost(`${url}/echo`, { n: [1, 2, 3] });
    expect(response.status).toBe(200);
    expect(await decryptJson(await response.json(), KEY)).toEqual({ n: [1, 2, 3] });
    expect(JSON.parse(seen)).toHaveProperty('ciphertext');
  });

  it("opens a chunked body after Hono's bodyLimit, which replaces c.req.raw to count it", async () => {
    const app = new Hono();
    app.use(bodyLimit({ maxSize: 64 * 1024 }));
    app.use(jwe({ keys: { k: KEY } }));
    app.post('/echo', async (c) => c.json(await c.req.json()));
    const url = await listen(app);
    const envelope = JSON.stringify(await encryptJson({ chunked: true }, KEY, { kid: 'k' }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(envelope));
        controller.close();
      },
    });
    const response = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(200);
    expect(await decryptJson(await response.json(), KEY)).toEqual({ chunked: true });
  });

  it('opens an HTTP/2 body sent without a length (h2c through @hono/node-server)', async () => {
    const app = new Hono();
    app.use(jwe({ keys: { k: KEY } }));
    app.post('/echo', async (c) => c.json({ body: await c.req.json(), encrypted: c.get('jwe').encrypted }));
    const h2 = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer: createHttp2Server });
    await once(h2, 'listening');
    const session = connect(`http://127.0.0.1:${(h2.address() as AddressInfo).port}`);
    try {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/echo',
        'content-type': 'application/json',
        'x-encryption': 'JWE',
      });
      stream.end(JSON.stringify(await encryptJson({ h2: true }, KEY, { kid: 'k' })));
      const [headers] = (await once(stream, 'response')) as [Record<string, string>];
      let text = '';
      for await (const chunk of stream) text += chunk;
      expect(headers[':status']).toBe(200);
      expect(headers['x-encryption']).toBe('JWE');
      expect(await decryptJson(JSON.parse(text), KEY)).toEqual({ body: { h2: true }, encrypted: true });
    } finally {
      session.close();
      await new Promise((done) => h2.close(done));
    }
  });
});
