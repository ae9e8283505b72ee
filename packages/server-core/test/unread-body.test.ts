// A refusal answered before the body was read must not leave that body to be parsed as the next
// request on a keep-alive connection: withJwe answers it with `Connection: close`, as the Node
// adapters do. Driven over a raw socket so the second request really shares the connection.
import { connect, type Socket } from 'node:net';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { afterEach, describe, expect, it } from 'vitest';
import { JweHttpError, withJwe } from '../src/index.js';

const KEY = 'abcdefghijklmnop';
const BOUNDARY = 'jwe-unread-body';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A route that refuses every upload before reading it, and answers anything else. */
const handler = withJwe(
  async (request) => {
    if (request.method === 'POST') throw new JweHttpError(400, 'upload.invalid', 'ERR_UPLOAD_INVALID', 'No.');
    return Response.json({ second: true });
  },
  { keys: { k: KEY } },
);

/** A multipart upload with a 64 KiB file and, on the same socket right behind it, a GET. */
function pipelinedRequests(host: string): string {
  const file = 'x'.repeat(64 * 1024);
  const body = [
    `--${BOUNDARY}`,
    'content-disposition: form-data; name="file"; filename="a.bin"',
    'content-type: application/octet-stream',
    '',
    file,
    `--${BOUNDARY}--`,
    '',
  ].join('\r\n');
  return (
    `POST /upload HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n` +
    `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
    `GET /second HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n\r\n`
  );
}

/** Everything the server sends until it closes the socket, or until it has sent two answers. */
function answersUntilClose(socket: Socket): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      if ((text.match(/^HTTP\/1\.1 /gm) ?? []).length >= 2 && text.includes('"second":true')) {
        resolve({ text, closedByServer: false });
        socket.destroy();
      }
    });
    socket.on('end', () => resolve({ text, closedByServer: true }));
    socket.on('error', reject);
  });
}

describe('withJwe refusing an unread body', () => {
  it('answers the refusal with Connection: close and closes the socket, so the unread upload is never read as a request', async () => {
    const running = await serveFetch(handler);
    close = running.close;
    const { host, port } = new URL(running.url);
    const socket = connect(Number(port), '127.0.0.1');
    const answers = answersUntilClose(socket);
    socket.write(pipelinedRequests(host));
    const { text, closedByServer } = await answers;

    const statusLines = text.match(/^HTTP\/1\.1 \d+/gm) ?? [];
    expect(statusLines).toEqual(['HTTP/1.1 400']);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain('"code":"ERR_UPLOAD_INVALID"');
    expect(closedByServer).toBe(true);
  });

  it('keeps the connection of a refusal whose body it read to the end (a wrong key)', async () => {
    const running = await serveFetch(handler);
    close = running.close;
    const envelope = '{"protected":"e30","iv":"","ciphertext":"","tag":""}';
    const response = await fetch(`${running.url}/json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body: envelope,
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('connection')).not.toBe('close');
  });
});
