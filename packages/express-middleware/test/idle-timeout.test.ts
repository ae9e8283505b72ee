import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, KEYS, listen, type Running, storedFiles } from './helpers.js';

const IDLE_MS = 300;
const STEADY_IDLE_MS = 1000;

/**
 * Opens a raw socket, sends the request head and the first bytes of a longer body, then nothing.
 * Resolves with everything the server wrote once it has closed the connection.
 */
async function stallAfter(url: string, path: string, headers: string, firstBytes: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk;
  });
  socket.write(`POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\n${headers}\r\n${firstBytes}`);
  await once(socket, 'close');
  return received;
}

describe.each(EXPRESS_VERSIONS)('clients that stop sending, on $name', ({ create }) => {
  let running: Running;
  let dest: string;

  beforeAll(async () => {
    dest = await mkdtemp(join(tmpdir(), 'jwe-idle-test-'));
    const app = create();
    const transport = jwe({ keys: KEYS, timeout: IDLE_MS });
    app.post('/json', transport, (req, res) => res.json({ body: req.body }));
    app.post('/steady', jwe({ keys: KEYS, timeout: STEADY_IDLE_MS }), (req, res) =>
      res.json({ body: req.body }),
    );
    app.post('/memory', transport.upload(), (req, res) => res.json({ size: req.file?.size }));
    app.post('/disk', transport.upload({ dest }), (req, res) => res.json({ size: req.file?.size }));
    app.use(jweErrorHandler());
    running = await listen(app);
  });
  afterAll(async () => {
    await running.close();
    await rm(dest, { recursive: true, force: true });
  });

  it.each([
    ['/json', 'plain JSON', 'Content-Type: application/json\r\n', '{"a":'],
    ['/json', 'an envelope', 'Content-Type: application/json\r\nX-Encryption: JWE\r\n', '{"protected":"'],
    ['/memory', 'an envelope', 'Content-Type: application/json\r\nX-Encryption: JWE\r\n', '{"protected":"'],
    ['/disk', 'an envelope', 'Content-Type: application/json\r\nX-Encryption: JWE\r\n', '{"protected":"'],
    [
      '/disk',
      'multipart',
      'Content-Type: multipart/form-data; boundary=b\r\n',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc',
    ],
  ])('%s: drops a client that stops in the middle of %s with 408', async (path, _what, type, first) => {
    const answer = await stallAfter(running.url, path, `${type}Content-Length: 100000\r\n`, first);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('"code":"ERR_REQUEST_TIMEOUT"');
    expect(await storedFiles(dest)).toEqual([]);
  });

  it('lets a slow client through that keeps sending, for longer in all than the idle timeout', async () => {
    const body = `{"note":"${'x'.repeat(24)}"}`;
    const { hostname, port } = new URL(running.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.write(
      `POST /steady HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // One byte every 60 ms: about 1.9 s in all, never more than a fraction of the idle timeout apart.
    let sent = 0;
    const pacing = setInterval(() => {
      socket.write(body[sent++]!);
      if (sent === body.length) clearInterval(pacing);
    }, 60);
    await once(socket, 'close');
    clearInterval(pacing);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(received).toContain(body.slice(1, -1));
  });
});
