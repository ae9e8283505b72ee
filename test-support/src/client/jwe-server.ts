// A stand-in for the service on 127.0.0.1, shared by the undici and axios adapter tests. It reads
// envelopes with the reference JWE (npm jose and node:crypto, never our codec), records what
// arrived, and answers as the query string asks:
//   reply=envelope (default for encrypted requests) | plain (default otherwise: the record as
//         plain JSON) | html (a plain text/html page) | wrongkey (an envelope under another key)
//         | marked-garbage (X-Encryption: JWE over a non-envelope)
//   status=NNN   answer with that status
//   kid=NAME     put a top-level kid member into the response envelope
//   fail=N       answer the first N requests to this path with a plain 503
//   forge=1      add an X-JWE-Decrypted header, as a confused or hostile server might
//   discard=1    count the body's bytes without keeping them; answer {"bytes": n} in plain JSON
//   refuse=NNN   answer NNN with an encrypted {"error":"refused"} before reading the body, then
//                drop the connection, as a gateway or a body-size limit does
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
  startRecordingServer,
} from './recording-server.js';
import { type Envelope, joseDecrypt, joseEncrypt, streamDecryptFile } from './reference-jwe.js';

export { type FileInfo, OTHER_KEY, SHARED_KEY };

export interface Recorded extends RecordedRequest {
  /** The request body as it arrived on the wire, for buffered requests (never for streamed ones). */
  wire?: string;
  /** Decrypted JSON of an encrypted JSON request. */
  json?: unknown;
  /** The file inside an encrypted upload. */
  file?: FileInfo;
}

export interface JweTestServer extends RecordingServer<Recorded> {
  origin: string;
  last(): Recorded;
}

async function receive(request: IncomingMessage, record: Recorded): Promise<void> {
  if (record.encrypted && request.headers['content-length'] === undefined) {
    record.streamed = true;
    record.file = await streamDecryptFile(request as AsyncIterable<Buffer>, serviceKey);
    return;
  }
  const body = await readAll(request);
  record.wire = body.toString('utf8');
  if (!record.encrypted) return;
  Object.assign(record, readPlaintext(await joseDecrypt(JSON.parse(record.wire) as Envelope, serviceKey)));
}

async function envelopeText(payload: string, record: Recorded, wrongKey = false): Promise<string> {
  const envelope = await joseEncrypt(payload, wrongKey ? otherServiceKey : serviceKey, record.query.kid);
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
  const server = await startRecordingServer<Recorded>(async (request, response, record, attempt) => {
    if (attempt <= Number(record.query.fail ?? 0)) {
      await receive(request, record);
      response.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
    } else if (record.query.refuse) await refuse(record, request, response);
    else if (record.query.discard) await discard(request, response);
    else {
      await receive(request, record);
      await answer(record, response);
    }
  });
  return {
    ...server,
    origin: server.url,
    last: () => {
      const record = server.requests.at(-1);
      if (record === undefined) throw new Error('the server has received no request');
      return record;
    },
  };
}
