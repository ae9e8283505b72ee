// The one body reader: a body read whole over real HTTP in many chunks, with and without a declared
// length, through Node's events and through a Web stream; and sources that do not hold to the
// length they declared, which must still give exactly the bytes they sent.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody } from '../src/read-body.js';

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

type Reader = (request: IncomingMessage) => Promise<Uint8Array>;

/** Sends `body` to a real server whose handler reads it with `read`; resolves with what it read. */
async function readOverHttp(body: Buffer, read: Reader, declareLength: boolean): Promise<Uint8Array> {
  let received: Promise<Uint8Array> | undefined;
  const server = createServer((request, response) => {
    received = read(request);
    received.then(
      () => response.end('ok'),
      () => response.end('refused'),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  close = () => server.close();
  const request = httpRequest({
    host: '127.0.0.1',
    port: (server.address() as AddressInfo).port,
    method: 'POST',
    headers: declareLength ? { 'content-length': body.length } : { 'transfer-encoding': 'chunked' },
  });
  // Written in pieces, so the server sees many chunks whichever way it reads.
  for (let at = 0; at < body.length; at += 50_000) request.write(body.subarray(at, at + 50_000));
  request.end();
  const [response] = await once(request, 'response');
  response.resume();
  await once(response, 'end');
  return received!;
}

const evented: Reader = (request) =>
  readBody(request, { limit: 2 ** 22, contentLength: request.headers['content-length'] });
const webStream: Reader = (request) =>
  readBody(Readable.toWeb(request) as ReadableStream<Uint8Array>, {
    limit: 2 ** 22,
    contentLength: request.headers['content-length'],
  });
const asyncIterable: Reader = (request) =>
  readBody(request[Symbol.asyncIterator]() as AsyncIterableIterator<Uint8Array>, {
    limit: 2 ** 22,
    contentLength: request.headers['content-length'],
  });

describe('readBody', () => {
  const body = randomBytes(1_234_567);
  for (const [name, read] of [
    ['Node events', evented],
    ['a Web stream', webStream],
    ['an async iterable', asyncIterable],
  ] as const) {
    for (const declareLength of [true, false]) {
      it(`reads a body of many chunks whole from ${name}, ${declareLength ? 'with' : 'without'} a declared length`, async () => {
        const read_ = await readOverHttp(body, read, declareLength);
        expect(read_.length).toBe(body.length);
        expect(Buffer.from(read_).equals(body)).toBe(true);
      });
    }
  }

  it('gives exactly the bytes sent by a source that sends fewer than it declared', async () => {
    const sent = [randomBytes(1000), randomBytes(3000)];
    const read = await readBody(Readable.from(sent)[Symbol.asyncIterator](), {
      limit: 100_000,
      contentLength: '50000',
    });
    expect(Buffer.from(read).equals(Buffer.concat(sent))).toBe(true);
  });

  it('gives exactly the bytes sent by a source that sends more than it declared, within the limit', async () => {
    const sent = [randomBytes(1000), randomBytes(3000), randomBytes(5000)];
    const read = await readBody(Readable.from(sent)[Symbol.asyncIterator](), {
      limit: 100_000,
      contentLength: '2000',
    });
    expect(Buffer.from(read).equals(Buffer.concat(sent))).toBe(true);
  });

  it('refuses with 413 a source that sends more than the limit, whatever it declared', async () => {
    const sent = [randomBytes(1000), randomBytes(3000), randomBytes(5000)];
    await expect(
      readBody(Readable.from(sent)[Symbol.asyncIterator](), { limit: 6000, contentLength: '2000' }),
    ).rejects.toMatchObject({ status: 413 });
  });

  it('hands a body that came in one chunk back as that chunk', async () => {
    const chunk = randomBytes(4000);
    const read = await readBody(Readable.from([chunk])[Symbol.asyncIterator](), {
      limit: 100_000,
      contentLength: '4000',
    });
    expect(read).toBe(chunk);
  });
});
