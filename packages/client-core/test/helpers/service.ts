// A stand-in for the service on 127.0.0.1 (port 0). It opens requests with npm `jose` (buffered)
// or the codec's streaming decoder (large uploads), records what arrived, and answers as the
// path's query asks:
//   reply=envelope (default) | plain | html | wrongkey | marked-garbage | duplicate-member
//                  (duplicate-member: a valid envelope with a decoy "ciphertext" member before the real one)
//   status=NNN     answer with that status
//   kid=ID         top-level kid of the reply envelope
//   refuse=1       answer at once, without reading the body (Node then drains it)
//   hangup=1       with refuse=1: close the connection after answering, unread body and all
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decryptFileStream } from '@jwe-transport/codec';
import { FlattenedEncrypt, flattenedDecrypt } from 'jose';

export const SHARED_KEY = 'k3y-0f-16-chars!';
export const OTHER_KEY = 'another16charKey';
const keyOf = (shared: string) => new TextEncoder().encode(shared + shared);

export interface Arrival {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  encrypted: boolean;
  envelope?: Record<string, string>;
  /** The decrypted JSON, or the file as size and hash for uploads. */
  json?: unknown;
  file?: { size: number; sha256: string };
  raw?: string;
  streamed: boolean;
}

export interface Service {
  url: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

export const GATEWAY_PAGE = `<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n`;

export async function sealWithJose(plaintext: string, shared: string, kid?: string) {
  const envelope = await new FlattenedEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
    .encrypt(keyOf(shared));
  return kid === undefined ? envelope : { ...envelope, kid };
}

async function openWithJose(envelope: unknown): Promise<string> {
  const { plaintext } = await flattenedDecrypt(
    envelope as Parameters<typeof flattenedDecrypt>[0],
    keyOf(SHARED_KEY),
    {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A128CBC-HS256'],
    },
  );
  return new TextDecoder().decode(plaintext);
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function receive(request: IncomingMessage, arrival: Arrival): Promise<void> {
  if (arrival.encrypted && request.headers['content-length'] === undefined) {
    arrival.streamed = true;
    const hash = createHash('sha256');
    const sink = new WritableStream<Uint8Array>({ write: (chunk) => void hash.update(chunk) });
    const { bytes } = await decryptFileStream(request as AsyncIterable<Uint8Array>, SHARED_KEY, { to: sink });
    arrival.file = { size: bytes, sha256: hash.digest('hex') };
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (!arrival.encrypted) {
    arrival.raw = body.toString('utf8');
    return;
  }
  arrival.envelope = JSON.parse(body.toString('utf8'));
  const value = JSON.parse(await openWithJose(arrival.envelope)) as Record<string, unknown>;
  if (typeof value.file === 'string' && Object.keys(value).length === 1) {
    const bytes = Buffer.from(value.file, 'base64');
    arrival.file = { size: bytes.length, sha256: sha256(bytes) };
  } else arrival.json = value;
}

async function answer(query: URLSearchParams, arrival: Arrival, response: ServerResponse): Promise<void> {
  const status = Number(query.get('status') ?? 200);
  const reply = query.get('reply') ?? 'envelope';
  const payload = JSON.stringify({
    path: arrival.path,
    encrypted: arrival.encrypted,
    json: arrival.json ?? null,
    file: arrival.file ?? null,
    raw: arrival.raw ?? null,
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let body = payload;
  if (reply === 'html') {
    headers['content-type'] = 'text/html';
    body = GATEWAY_PAGE;
  } else if (reply === 'marked-garbage') {
    headers['x-encryption'] = 'JWE';
    body = JSON.stringify({ error: 'not an envelope' });
  } else if (reply !== 'plain') {
    const kid = query.get('kid') ?? undefined;
    body = JSON.stringify(await sealWithJose(payload, reply === 'wrongkey' ? OTHER_KEY : SHARED_KEY, kid));
    if (reply === 'duplicate-member') body = `{"ciphertext":"AAAA",${body.slice(1)}`;
    headers['x-encryption'] = 'JWE';
  }
  response.writeHead(status, headers).end(body);
}

/** Answers before reading the body, as an auth check or a size limit does, and hangs up. */
async function refuse(query: URLSearchParams, response: ServerResponse): Promise<void> {
  const status = Number(query.get('status') ?? 413);
  const body = JSON.stringify(
    await sealWithJose(JSON.stringify({ error: `refused with ${status}` }), SHARED_KEY),
  );
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-encryption': 'JWE' };
  if (query.get('hangup') === '1') headers.connection = 'close';
  response.writeHead(status, headers).end(body);
}

export async function startService(): Promise<Service> {
  const arrivals: Arrival[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.searchParams.get('refuse') === '1') {
      void refuse(url.searchParams, response);
      return;
    }
    const arrival: Arrival = {
      method: request.method ?? 'GET',
      path: url.pathname,
      headers: request.headers,
      encrypted: request.headers['x-encryption'] === 'JWE',
      streamed: false,
    };
    arrivals.push(arrival);
    receive(request, arrival)
      .then(() => answer(url.searchParams, arrival, response))
      .catch((error: unknown) => {
        request.resume();
        response.writeHead(400, { 'content-type': 'text/plain' }).end(`could not read it: ${String(error)}`);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A file of pseudo-random bytes, made at run time, with its SHA-256. */
export function randomFile(size: number): { bytes: Uint8Array<ArrayBuffer>; sha256: string } {
  const bytes = new Uint8Array(randomBytes(size)) as Uint8Array<ArrayBuffer>;
  return { bytes, sha256: sha256(bytes) };
}
