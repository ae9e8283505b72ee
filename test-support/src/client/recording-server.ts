// The part every client adapter's stand-in service shares (ky-plugin's test-server, the undici
// and axios jwe-server): its keys, and a node:http server on 127.0.0.1, port 0, that records each
// request, counts attempts per path, and answers a handler's failure with a plain 400. What a
// server reads and how it answers stays in each adapter's own helper.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { referenceKey } from './reference-jwe.js';

/** The shared key every stand-in service reads and seals with, and one it never accepts. */
export const SHARED_KEY = 'k3y-0f-16-chars!';
export const OTHER_KEY = 'another16charKey';
export const serviceKey = referenceKey(SHARED_KEY);
export const otherServiceKey = referenceKey(OTHER_KEY);

export interface FileInfo {
  size: number;
  sha256: string;
}

/** What every recording server notes about a request; each server adds what it reads. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  encrypted: boolean;
  /** True when an encrypted body arrived without a content-length and was decrypted as it streamed. */
  streamed: boolean;
}

export interface RecordingServer<R> {
  url: string;
  requests: R[];
  close(): Promise<void>;
}

/** Answers one request; `attempt` counts the requests to this path so far, this one included. */
export type RecordingHandler<R> = (
  request: IncomingMessage,
  response: ServerResponse,
  record: R,
  attempt: number,
) => Promise<void>;

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An envelope's plaintext as the service reads it: an upload (`{"file": base64}`) or JSON. */
export function readPlaintext(plaintext: Uint8Array): { file: FileInfo } | { json: unknown } {
  const value = JSON.parse(Buffer.from(plaintext).toString('utf8')) as Record<string, unknown>;
  if (typeof value.file === 'string' && Object.keys(value).length === 1) {
    const bytes = Buffer.from(value.file, 'base64');
    return { file: { size: bytes.length, sha256: sha256(bytes) } };
  }
  return { json: value };
}

export async function startRecordingServer<R extends RecordedRequest>(
  handle: RecordingHandler<R>,
): Promise<RecordingServer<R>> {
  const requests: R[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const record = {
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      encrypted: request.headers['x-encryption'] === 'JWE',
      streamed: false,
    } as R;
    requests.push(record);
    const attempt = (attempts.get(record.path) ?? 0) + 1;
    attempts.set(record.path, attempt);
    handle(request, response, record, attempt).catch((error: unknown) => {
      request.resume();
      if (response.headersSent) return void response.destroy();
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
