// A server for retried streamed uploads: it decrypts every attempt as it arrives (never holding
// the file) and records the envelope's IV, so that a test can tell two sealings of one file apart.
import {
  type RecordedRequest,
  type RecordingServer,
  serviceKey,
  startRecordingServer,
} from './recording-server.js';
import { joseEncrypt, streamDecryptFile } from './reference-jwe.js';

export interface Attempt extends RecordedRequest {
  /** The envelope's IV, read from the head of the stream: two sealings differ here. */
  iv?: string;
  file?: { size: number; sha256: string };
}

/**
 * Decrypts every upload as it arrives and answers as the query asks: `fail=N` answers the first N
 * attempts on a path 503 (after reading them whole), `hold=1` reads the upload and never answers.
 */
export function startRetryServer(): Promise<RecordingServer<Attempt>> {
  return startRecordingServer<Attempt>(async (request, response, record, attempt) => {
    record.streamed = request.headers['content-length'] === undefined;
    let head = '';
    async function* wire() {
      for await (const chunk of request as AsyncIterable<Buffer>) {
        if (head.length < 1024) head += chunk.toString('latin1');
        yield chunk;
      }
    }
    const { sha256, size } = await streamDecryptFile(wire(), serviceKey);
    record.file = { sha256, size };
    const iv = /"iv":"([^"]+)"/.exec(head)?.[1];
    if (iv !== undefined) record.iv = iv;
    if (record.query.hold === '1') return;
    if (attempt <= Number(record.query.fail ?? 0)) {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
      return;
    }
    const envelope = await joseEncrypt(JSON.stringify({ file: record.file }), serviceKey);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
  });
}
