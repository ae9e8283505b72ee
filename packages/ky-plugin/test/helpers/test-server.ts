// A stand-in for the service on 127.0.0.1: it decrypts with the reference JWE (jose / node:crypto,
// never our codec), records what arrived, and answers as the query string asks:
//   reply=protected (default for encrypted requests, npm jose) | bare (no `protected`, empty AAD)
//        | jwcrypto (Python jwcrypto, as the service's own samples were made)
//        | plain (default for plain requests) | wrongkey | garbage-marked
//        | html (a gateway's error page, text/html)
//   status=NNN   answer with that status
//   refuse=1     answer at once (status, default 413), encrypted, without reading the body
//   fail=N       answer the first N attempts on this path with 503 (plain text)
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type FileInfo,
  OTHER_KEY,
  otherServiceKey,
  type RecordedRequest,
  type RecordingServer,
  readAll,
  readPlaintext,
  SHARED_KEY,
  serviceKey,
  sha256,
  startRecordingServer,
} from '@jwe-transport/test-support/client/recording-server';
import {
  bareEncrypt,
  type Envelope,
  joseDecrypt,
  joseEncrypt,
  streamDecryptFile,
} from '@jwe-transport/test-support/client/reference-jwe';
import { jwcryptoEncrypt } from '../../../../test-vectors/peers/index.mjs';

export { type FileInfo, OTHER_KEY, SHARED_KEY };

export interface Recorded extends RecordedRequest {
  /** The envelope as received, for buffered (non-streamed) encrypted requests. */
  envelope?: Envelope;
  /** Decrypted JSON plaintext of an encrypted JSON request. */
  json?: unknown;
  /** The file inside an encrypted upload, or inside a plain multipart upload. */
  file?: FileInfo;
  /** The raw body of a plain request, as text. */
  raw?: string;
}

export type TestServer = RecordingServer<Recorded>;

async function receive(request: IncomingMessage, record: Recorded): Promise<void> {
  if (record.encrypted && request.headers['content-length'] === undefined) {
    // A streamed upload: decrypt as it arrives, never holding the file.
    record.streamed = true;
    const { sha256: hash, size } = await streamDecryptFile(request as AsyncIterable<Buffer>, serviceKey);
    record.file = { sha256: hash, size };
    return;
  }
  const body = await readAll(request);
  if (record.encrypted) {
    record.envelope = JSON.parse(body.toString('utf8')) as Envelope;
    Object.assign(record, readPlaintext(await joseDecrypt(record.envelope, serviceKey)));
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
        ? bareEncrypt(payload, serviceKey)
        : reply === 'jwcrypto'
          ? (await jwcryptoEncrypt(SHARED_KEY, new TextEncoder().encode(payload), { kid: 'svc' }))[0]
          : await joseEncrypt(payload, reply === 'wrongkey' ? otherServiceKey : serviceKey);
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
  const envelope = await joseEncrypt(JSON.stringify({ error: `refused with ${status}` }), serviceKey);
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
}

export function startTestServer(): Promise<TestServer> {
  return startRecordingServer<Recorded>(async (request, response, record, attempt) => {
    if (record.query.refuse === '1') return refuse(Number(record.query.status ?? 413), response);
    await receive(request, record);
    if (attempt <= Number(record.query.fail ?? 0)) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
      return;
    }
    await answer(record, response);
  });
}
