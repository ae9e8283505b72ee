// A service that answers the first attempt at each path with a 503 after reading and decrypting
// all of it, and the next with a sealed 200: what a retried upload must look like on both attempts
// (the whole file, SHA-256 checked, and the IV each attempt was sealed under).
import type { IncomingMessage } from 'node:http';
import {
  type FileInfo,
  type RecordedRequest,
  readAll,
  readPlaintext,
  serviceKey,
  startRecordingServer,
} from '@jwe-transport/test-support/client/recording-server';
import {
  joseDecrypt,
  joseEncrypt,
  streamDecryptFile,
} from '@jwe-transport/test-support/client/reference-jwe';

export interface Attempt extends RecordedRequest {
  iv?: string | undefined;
  file?: FileInfo;
  status?: number;
}

/** The body as it passes, with the envelope's `iv` member noted from its first bytes. */
async function* noteIv(source: AsyncIterable<Buffer>, record: Attempt): AsyncGenerator<Buffer> {
  let head = '';
  for await (const chunk of source) {
    if (record.iv === undefined && head.length < 4096) {
      head += chunk.toString('latin1');
      record.iv = /"iv":"([^"]+)"/.exec(head)?.[1];
    }
    yield chunk;
  }
}

async function receive(request: IncomingMessage, record: Attempt): Promise<void> {
  if (!record.encrypted) throw new Error('the upload arrived in plaintext');
  if (request.headers['content-length'] === undefined) {
    record.streamed = true;
    record.file = await streamDecryptFile(noteIv(request as AsyncIterable<Buffer>, record), serviceKey);
    return;
  }
  const envelope = JSON.parse((await readAll(request)).toString('utf8')) as Record<string, string>;
  record.iv = envelope.iv;
  const plaintext = readPlaintext(await joseDecrypt(envelope, serviceKey));
  if (!('file' in plaintext)) throw new Error('the envelope carries no file');
  record.file = plaintext.file;
}

export async function startRetryServer() {
  return startRecordingServer<Attempt>(async (request, response, record, attempt) => {
    await receive(request, record);
    if (attempt === 1) {
      record.status = 503;
      response.writeHead(503, { 'content-type': 'text/plain' }).end('try again');
      return;
    }
    record.status = 200;
    const envelope = await joseEncrypt(JSON.stringify({ file: record.file }), serviceKey);
    response
      .writeHead(200, { 'content-type': 'application/json', 'x-encryption': 'JWE' })
      .end(JSON.stringify(envelope));
  });
}
