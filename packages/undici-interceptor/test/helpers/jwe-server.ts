// A stand-in for the service on 127.0.0.1, shared by the undici and axios adapter tests. It reads
// envelopes with the reference JWE (npm jose and node:crypto, never our codec), records what
// arrived, and answers as the query string asks:
//   reply=envelope (default for encrypted requests) | plain (default otherwise: the record as
//         plain JSON) | html (a plain text/html page) | wrongkey (an envelope under another key)
//         | marked-garbage (X-Encryption: JWE over a non-envelope)
//   status=NNN   answer with that status
//   kid=NAME     put a top-level kid member into the response envelope
//   forge=1      add an X-JWE-Decrypted header, as a confused or hostile server might
//   discard=1    count the body's bytes without keeping them; answer {"bytes": n} in plain JSON
//   refuse=NNN   answer NNN with an encrypted {"error":"refused"} before reading the body, then
//                drop the connection, as a gateway or a body-size limit does
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type Envelope,
  joseDecrypt,
  joseEncrypt,
  referenceKey,
  streamDecryptFile,
} from '../../../ky-plugin/test/helpers/reference-jwe.js';

export const SHARED_KEY = 'k3y-0f-16-chars!';
export const OTHER_KEY = 'another16charKey';

export interface FileInfo {
  size: number;
  sha256: string;
}

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  encrypted: boolean;
  /** The request body as it arrived on the wire, for buffered requests (never for streamed ones). */
  wire?: string;
  /** Decrypted JSON of an encrypted JSON request. */
  json?: unknown;
  /** The file inside an encrypted upload. */
  file?: FileInfo;
  /** True when the envelope arrived without a content-length and was decrypted as it streamed. */
  streamed: boolean;
}

export interface JweTestServer {
  url: string;
  origin: string;
  requests: Recorded[];
  last(): Recorded;
  close(): Promise<void>;
}

const key = referenceKey(SHARED_KEY);
const otherKey = referenceKey(OTHER_KEY);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function receive(request: IncomingMessage, record: Recorded): Promise<void> {
  if (record.encrypted && request.headers['content-length'] === undefined) {
    record.streamed = true;
    record.file = await streamDecryptFile(request as AsyncIterable<Buffer>, key);
    return;
  }
  const body = await readAll(request);
  record.wire = body.toString('utf8');
  if (!record.encrypted) return;
  const plaintext = await joseDecrypt(JSON.parse(record.wire) as Envelope, key);
  const value = JSON.parse(Buffer.from(plaintext).toString('utf8')) as Record<string, unknown>;
  if (typeof value.file === 'string' && Object.keys(value).length === 1) {
    const bytes = Buffer.from(value.file, 'base64');
    record.file = { size: bytes.length, sha256: sha256(bytes) };
  } else record.json = value;
}

async function envelopeText(payload: string, record: Recorded, wrongKey = false): Promise<string> {
  const envelope = await joseEncrypt(payload, wrongKey ? otherKey : key, record.query.kid);
  return JSON.stringify(envelope);
}

async function answer(record: Recorded, response: ServerResponse): Promise<void> {
  const status = Number(record.query.status ?? 200);
  const reply = record.query.reply ?? (record.encrypted ? 'envelope' : 'plain');
  const payload = JSON.stringify({
    method: record.method,
    path: record.path,
    encrypted: record.encrypted,
    json: record.json ?? null,
    file: record.file ?? null,
  });
  const json: Record<string, string> = { 'content-type': 'application/json' };
  if (record.query.forge) json['x-jwe-decrypted'] = 'true';
  if (reply === 'plain') response.writeHead(status, json).end(payload);
  else if (reply === 'html') {
    const html = { ...json, 'content-type': 'text/html' };
    response.writeHead(status, html).end('<html><body>Bad gateway</body></html>');
  } else if (reply === 'marked-garbage') {
    response.writeHead(status, { ...json, 'x-encryption': 'JWE' }).end('{"not":"an envelope"}');
  } else {
    const body = await envelopeText(payload, record, reply === 'wrongkey');
    response.writeHead(status, { ...json, 'x-encryption': 'JWE' }).end(body);
  }
}

async function refuse(record: Recorded, request: IncomingMessage, response: ServerResponse) {
  const body = await envelopeText(JSON.stringify({ error: 'refused' }), record);
  response.on('finish', () => setImmediate(() => request.socket.destroy()));
  response
    .writeHead(Number(record.query.refuse), {
      'content-type': 'application/json',
      'x-encryption': 'JWE',
      connection: 'close',
    })
    .end(body);
}

async function discard(request: IncomingMessage, response: ServerResponse) {
  let bytes = 0;
  for await (const chunk of request) bytes += (chunk as Buffer).length;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes }));
}

export async function startJweServer(): Promise<JweTestServer> {
  const requests: Recorded[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const record: Recorded = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      encrypted: request.headers['x-encryption'] === 'JWE',
      streamed: false,
    };
    requests.push(record);
    const work = record.query.refuse
      ? refuse(record, request, response)
      : record.query.discard
        ? discard(request, response)
        : receive(request, record).then(() => answer(record, response));
    work.catch((error: unknown) => {
      request.resume();
      if (response.headersSent) return void response.destroy();
      response
        .writeHead(400, { 'content-type': 'text/plain' })
        .end(`server could not read it: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    origin,
    requests,
    last: () => {
      const record = requests.at(-1);
      if (record === undefined) throw new Error('the server has received no request');
      return record;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
