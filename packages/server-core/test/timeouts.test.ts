import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDLE_TIMEOUT, DEFAULT_REQUEST_TIMEOUT, setUploadTimeouts } from '../src/node/index.js';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.end('done'));
});
afterEach(() => {
  server.closeAllConnections();
  server.close();
});

describe('setUploadTimeouts', () => {
  it('defaults to 10 minutes per request (500 MB at 1 MB/s) and 30 s of silence', () => {
    setUploadTimeouts(server);
    expect(server.requestTimeout).toBe(DEFAULT_REQUEST_TIMEOUT);
    expect(DEFAULT_REQUEST_TIMEOUT).toBeGreaterThanOrEqual((500e6 / 1e6) * 1000);
    expect(server.timeout).toBe(DEFAULT_IDLE_TIMEOUT);
    expect(() => setUploadTimeouts(server, { idleTimeout: -1 })).toThrow(TypeError);
  });

  it('drops a client that starts an upload and then sends nothing', async () => {
    setUploadTimeouts(server, { idleTimeout: 100 });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const upload = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      headers: { 'content-length': '1000' },
    });
    upload.write('x'.repeat(10));
    const [error] = await once(upload, 'error');
    expect((error as NodeJS.ErrnoException).code).toMatch(/ECONNRESET|socket hang up/);
  });
});
