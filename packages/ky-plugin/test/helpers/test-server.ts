// A stand-in for the service on 127.0.0.1: it decrypts with the reference JWE (jose / node:crypto,
// never our codec), records what arrived, and answers as the query string asks:
//   reply=protected (default for encrypted requests, npm jose) | bare (no `protected`, empty AAD)
//        | jwcrypto (Python jwcrypto, as the service's own samples were made)
//        | plain (default for plain requests) | wrongkey | garbage-marked
//        | html (a gateway's error page, text/html)
//   status=NNN   answer with that status
//   refuse=1     answer at once (status, default 413), encrypted, without reading the body
//   fail=N       answer the first N attempts on this path with 503 (plain text)
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwcryptoEncrypt } from '../../../../test-vectors/peers/index.mjs';
import {
  bareEncrypt,
  type Envelope,
  joseDecrypt,
  joseEncrypt,
  referenceKey,
  streamDecryptFile,
} from './reference-jwe.js';

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
  /** The envelope as received, for buffered (non-streamed) encrypted requests. */
  envelope?: Envelope;
  /** Decrypted JSON plaintext of an encrypted JSON request. */
  json?: unknown;
  /** The file inside an encrypted upload, or inside a plain multipart upload. */
  file?: FileInfo;
  /** The raw body of a plain request, as text. */
  raw?: string;
  streamed: boolean;
}

export interface TestServer {
  url: string;
  requests: Recorded[];
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
    // A streamed upload: decrypt as it arrives, never holding the file.
    record.streamed = true;
    const { sha256: hash, size } = await streamDecryptFile(request as AsyncIterable<Buffer>, key);
    record.file = { sha256: hash, size };
    return;
  }
  const body = await readAll(request);
  if (record.encrypted) {
    record.envelope = JSON.parse(body.toString('utf8')) as Envelope;
    const plaintext = await joseDecrypt(record.envelope, key);
    const value = JSON.parse(Buffer.from(plaintext).toString('utf8')) as Record<string, unknown>;
    if (typeof value.file === 'string' && Object.keys(value).length === 1) {
      const bytes = Buffer.from(value.file, 'base64');
      record.file = { size: bytes.length, sha256: sha256(bytes) };
    } else record.json = value;
    return;
  }
  record.raw = body.toString('utf8');
  const contentType = request.headers['content-type'] ?? '';
  if (contentType.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': contentType },
    }).formData();
    const file = form.get('file');
    if (file !== null && typeof file !== 'string') {
      const bytes = new Uint8Array(await file.arrayBuffer());
      record.file = { size: bytes.length, sha256: sha256(bytes) };
    }
  }
}

async function answer(record: Recorded, response: ServerResponse): Promise<void> {
  const status = Number(record.query.status ?? 200);
  const reply = record.query.reply ?? (record.encrypted ? 'protected' : 'plain');
  const payload = JSON.stringify({
    path: record.path,
    query: record.query,
    encrypted: record.encrypted,
    json: record.json ?? null,
    file: record.file ?? null,
    raw: record.raw ?? null,
  });
  let body: string;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (reply === 'plain') body = payload;
  else if (reply === 'html') {
    body = GATEWAY_PAGE;
    headers['content-type'] = 'text/html';
  } else if (reply === 'garbage-marked') {
    body = JSON.stringify({ not: 'an envelope' });
    headers['x-encryption'] = 'JWE';
  } else {
    const envelope =
      reply === 'bare'
        ? bareEncrypt(payload, key)
        : reply === 'jwcrypto'
          ? (await jwcryptoEncrypt(SHARED_KEY, new TextEncoder().encode(payload), { kid: 'svc' }))[0]
          : await joseEncrypt(payload, reply === 'wrongkey' ? otherKey : key);
    body = JSON.stringify(envelope);
    // The service is not documented to mark responses; `auto` must find unmarked envelopes too.
    if (record.query.mark === '1') headers['x-encryption'] = 'JWE';
  }
  response.writeHead(status, headers).end(body);
}

export const GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>\n';

/** Answers an upload before reading it, as an auth check or a size limit does. */
async function refuse(status: number, response: ServerResponse): Promise<void> {
  const envelope = await joseEncrypt(JSON.stringify({ error: `refused with ${status}` }), key);
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
}

export async function startTestServer(): Promise<TestServer> {
  const requests: Recorded[] = [];
  const attempts = new Map<string, number>();
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
    if (record.query.refuse === '1') {
      void refuse(Number(record.query.status ?? 413), response);
      return;
    }
    const attempt = (attempts.get(url.pathname) ?? 0) + 1;
    attempts.set(url.pathname, attempt);
    receive(request, record)
      .then(() => {
        if (attempt <= Number(record.query.fail ?? 0)) {
          response.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
          return;
        }
        return answer(record, response);
      })
      .catch((error: unknown) => {
        request.resume();
        response
          .writeHead(400, { 'content-type': 'text/plain' })
          .end(`server could not read it: ${String(error)}`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
