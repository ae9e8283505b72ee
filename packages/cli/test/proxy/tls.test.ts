import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import { encryptSync } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import { KEY, KID, runTool, startProxyProcess } from './support.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: Server;
let upstream: string;
let received = 0;

beforeAll(async () => {
  dir = await tempDir();
  // A certificate of our own for 127.0.0.1, made by openssl: no system CA knows it.
  const made = await runTool('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=jwe-proxy-test',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    dir.path('key.pem'),
    '-out',
    dir.path('cert.pem'),
  ]);
  expect(made.code, made.stderr).toBe(0);
  server = createServer(
    { key: await readFile(dir.path('key.pem')), cert: await readFile(dir.path('cert.pem')) },
    (request, response) => {
      received++;
      request.resume();
      request.on('end', () => {
        const envelope = encryptSync('{"over":"tls"}', KEY, { kid: KID });
        response
          .writeHead(200, { 'content-type': 'application/json', 'x-encryption': 'JWE' })
          .end(JSON.stringify(envelope));
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await dir?.cleanup();
});

async function call(args: string[]) {
  const proxy = await startProxyProcess(['--upstream', upstream, ...args]);
  try {
    const result = await runTool('curl', [
      '-sS',
      '--fail-with-body',
      `${proxy.url}/records`,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"a":1}',
    ]);
    const [line] = await proxy.waitForLines(1);
    return { result, line: line!, stderr: proxy.stderr() };
  } finally {
    expect(await proxy.stop()).toBe(0);
  }
}

describe('upstream TLS', () => {
  it('refuses a certificate no trusted CA signed, before anything is sent', async () => {
    const before = received;
    const { result } = await call([]);
    expect(result.code).toBe(22);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ERR_PROXY_UPSTREAM_TLS' } });
    expect(received).toBe(before);
  });

  it('trusts it with --ca FILE', async () => {
    const { result, line } = await call(['--ca', dir.path('cert.pem')]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ over: 'tls' });
    expect(line).not.toContain('INSECURE');
  });

  it('--insecure skips the check and says so at start and on every line', async () => {
    const { result, line, stderr } = await call(['--insecure']);
    expect(result.code).toBe(0);
    expect(line).toContain('[INSECURE TLS]');
    expect(stderr).toContain('--insecure');
  });
});
