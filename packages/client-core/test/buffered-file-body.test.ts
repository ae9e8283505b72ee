import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptFile } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweClient } from '../src/adapter/index.js';
import { createJweFetch } from '../src/index.js';

/*
 * A file sealed in memory is the envelope's UTF-8 bytes (never a string that a client would encode
 * again), and those bytes can be sent again: fetch repeats them after a 307 redirect.
 */

const KEY = 'k3y-f0r-t3st1ng!';
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('a file sealed in memory', () => {
  let server: Server;
  let url: string;
  const arrivals: { path: string; bytes: number }[] = [];

  beforeAll(async () => {
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      arrivals.push({ path: request.url!, bytes: body.length });
      if (request.url === '/first') {
        response.writeHead(307, { location: '/again' }).end();
        return;
      }
      const file = await decryptFile(body, KEY);
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ size: file.length, sha256: sha256(file) }));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('is the envelope JSON text as UTF-8 bytes, which the codec opens to the file', async () => {
    const client = createJweClient({ key: KEY, kid: 'k1' });
    const file = randomBytes(200_000);
    const sealed = await client.seal(file, { 'content-type': 'application/octet-stream' });
    expect(sealed.kind).toBe('buffered');
    if (sealed.kind !== 'buffered') return;
    expect(sealed.payload).toBe('file');
    expect(sealed.body).toBeInstanceOf(Uint8Array);
    const envelope = JSON.parse(new TextDecoder().decode(sealed.body as Uint8Array));
    expect(envelope.kid).toBe('k1');
    expect(Buffer.from(await decryptFile(sealed.body as Uint8Array, KEY)).equals(file)).toBe(true);
  });

  it('is the same envelope as text when the call asks for text, as fetch-based adapters do', async () => {
    const client = createJweClient({ key: KEY, kid: 'k1' });
    const file = randomBytes(200_000);
    const sealed = await client.seal(file, { 'content-type': 'application/octet-stream' }, { text: true });
    expect(sealed).toMatchObject({ kind: 'buffered', payload: 'file' });
    if (sealed.kind !== 'buffered') return;
    expect(typeof sealed.body).toBe('string');
    expect(Buffer.from(await decryptFile(sealed.body, KEY)).equals(file)).toBe(true);
  });

  it('is sent again, whole, after a 307 redirect', async () => {
    const jweFetch = createJweFetch({ key: KEY, kid: 'k1', origins: [url], plainResponses: 'accept' });
    const file = randomBytes(300_000);
    const response = await jweFetch(`${url}/first`, { method: 'POST', body: file });
    expect(await response.json()).toEqual({ size: file.length, sha256: sha256(file) });
    const [first, again] = arrivals.slice(-2);
    expect(first).toMatchObject({ path: '/first' });
    expect(again).toEqual({ path: '/again', bytes: first!.bytes });
  });
});
