import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptSync } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KEY,
  KID,
  type ProxyProcess,
  referenceService,
  runTool,
  startProxyProcess,
  TOKEN,
} from './support.js';

const INIT = '/abdm/na/v1/registration/aadhaar/init';
const JSON_BODY = '{"aadhaar_number":"999941057058"}';

/** One HTTP/1.1 exchange written by hand over a socket, for what no well-behaved client sends. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
    });
    socket.on('end', () => resolve(answer));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A small upstream whose answers the test writes. */
async function upstream(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

async function filesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    if ((await stat(join(dir, name))).isFile()) found.push(name);
  }
  return found;
}

async function curlJson(
  proxy: ProxyProcess,
  path = INIT,
): Promise<{ code: number | null; body: unknown; stdout: string }> {
  const result = await runTool('curl', [
    '-sS',
    '--fail-with-body',
    `${proxy.url}${path}`,
    '-H',
    `Authorization: Bearer ${TOKEN}`,
    '-H',
    'Content-Type: application/json',
    '-d',
    JSON_BODY,
  ]);
  let body: unknown;
  try {
    body = JSON.parse(result.stdout);
  } catch {
    body = undefined;
  }
  return { code: result.code, body, stdout: result.stdout };
}

describe('the proxy is not an open proxy', () => {
  let service: Awaited<ReturnType<typeof referenceService>>;
  let proxy: ProxyProcess;
  beforeAll(async () => {
    service = await referenceService();
    proxy = await startProxyProcess(['--upstream', service.url]);
  });
  afterAll(async () => {
    expect(await proxy.stop()).toBe(0);
    await service.close();
  });

  it('refuses an absolute-form request for another host (curl -x), and the upstream never sees it', async () => {
    const before = service.log.length;
    const result = await runTool('curl', [
      '-sS',
      '--fail-with-body',
      '-x',
      proxy.url,
      'http://example.invalid/secret',
    ]);
    expect(result.code).toBe(22);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ERR_PROXY_NOT_OPEN' } });
    expect(service.log.length).toBe(before);
  });

  it('refuses CONNECT', async () => {
    const answer = await rawExchange(
      proxy.port,
      'CONNECT example.invalid:443 HTTP/1.1\r\nHost: example.invalid:443\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toContain('ERR_PROXY_NOT_OPEN');
  });

  it('refuses a forged Host (DNS rebinding) and a request without one', async () => {
    const before = service.log.length;
    const forged = await rawExchange(
      proxy.port,
      `POST ${INIT} HTTP/1.1\r\nHost: rebind.example:${proxy.port}\r\nContent-Type: application/json\r\nContent-Length: ${JSON_BODY.length}\r\nConnection: close\r\n\r\n${JSON_BODY}`,
    );
    expect(forged).toMatch(/^HTTP\/1\.1 421 /);
    expect(forged).toContain('ERR_PROXY_HOST');
    const hostless = await rawExchange(proxy.port, 'GET / HTTP/1.0\r\n\r\n');
    expect(hostless).toMatch(/^HTTP\/1\.1 400 /);
    expect(service.log.length).toBe(before);
    const lines = await proxy.waitForLines(4);
    expect(lines.join('\n')).toMatch(/ 421 {2}FAILED ERR_PROXY_HOST/);
  });

  it('refuses a request that is already sealed, pointing at --watch', async () => {
    const result = await runTool('curl', [
      '-sS',
      '--fail-with-body',
      `${proxy.url}${INIT}`,
      '-H',
      'X-Encryption: JWE',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{}',
    ]);
    expect(result.code).toBe(22);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ERR_PROXY_ALREADY_SEALED' } });
  });
});

describe('fail closed on what the upstream answers', () => {
  it('a plain 2xx answer to a sealed request is the error it is, not the answer', async () => {
    const plain = await upstream((request, response) => {
      request.resume();
      request.on('end', () =>
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"leaked":"plaintext"}'),
      );
    });
    const proxy = await startProxyProcess(['--upstream', plain.url]);
    try {
      const result = await curlJson(proxy);
      expect(result.code).toBe(22);
      expect(result.body).toMatchObject({ error: { code: 'ERR_JWE_RESPONSE_NOT_ENCRYPTED' } });
      expect(result.body).not.toHaveProperty('leaked');
      const [line] = await proxy.waitForLines(1);
      expect(line).toMatch(/ 502 {2}FAILED ERR_JWE_RESPONSE_NOT_ENCRYPTED/);
    } finally {
      expect(await proxy.stop()).toBe(0);
      await closeServer(plain.server);
    }
  });

  it('a tampered answer does not open', async () => {
    const tampering = await upstream((request, response) => {
      request.resume();
      request.on('end', () => {
        const envelope = encryptSync('{"ok":true}', KEY, { kid: KID });
        const flipped = envelope.ciphertext.startsWith('A')
          ? `B${envelope.ciphertext.slice(1)}`
          : `A${envelope.ciphertext.slice(1)}`;
        response
          .writeHead(200, { 'content-type': 'application/json', 'x-encryption': 'JWE' })
          .end(JSON.stringify({ ...envelope, ciphertext: flipped }));
      });
    });
    const proxy = await startProxyProcess(['--upstream', tampering.url]);
    try {
      const result = await curlJson(proxy);
      expect(result.code).toBe(22);
      expect(result.body).toMatchObject({ error: { code: 'ERR_JWE_DECRYPTION_FAILED' } });
    } finally {
      expect(await proxy.stop()).toBe(0);
      await closeServer(tampering.server);
    }
  });

  it('a kid the service does not know: the service refuses, and the tool sees its refusal', async () => {
    const service = await referenceService();
    const proxy = await startProxyProcess(['--upstream', service.url, '--kid', 'retired'], {
      JWE_KEY: `retired=Zz1Yy2Xx3Ww4Vv5U,${KID}=${KEY}`,
    });
    try {
      const result = await curlJson(proxy);
      expect(result.code).toBe(22);
      expect(result.body).toMatchObject({ error: { code: 'ERR_KEY_UNKNOWN' } });
      expect(service.log.at(-1)).toMatch(new RegExp(`^POST ${INIT} 400`));
      const [line] = await proxy.waitForLines(1);
      expect(line).toMatch(/ 400 {2}refused ERR_KEY_UNKNOWN {2}kid retired/);
    } finally {
      expect(await proxy.stop()).toBe(0);
      await service.close();
    }
  });

  it('an upstream that hangs is cut off after --timeout with a 504', async () => {
    const received: IncomingMessage[] = [];
    const hanging = await upstream((request) => {
      received.push(request);
      request.resume();
    });
    const proxy = await startProxyProcess(['--upstream', hanging.url, '--timeout', '0.5']);
    try {
      const result = await curlJson(proxy);
      expect(result.code).toBe(22);
      expect(result.body).toMatchObject({ error: { code: 'ERR_PROXY_UPSTREAM_TIMEOUT' } });
      expect(received).toHaveLength(1);
    } finally {
      expect(await proxy.stop()).toBe(0);
      await closeServer(hanging.server);
    }
  });
});

describe('a tool that hangs up mid-upload', () => {
  for (const kind of ['multipart', 'raw', 'watching'] as const) {
    it(`${kind}: leaves no temporary file and no unhandled error, and the proxy keeps serving`, async () => {
      const service = await referenceService();
      const tmp = await mkdtemp(join(tmpdir(), 'jwe-proxy-tmp-'));
      const watching = kind === 'watching' ? ['--watch'] : [];
      const proxy = await startProxyProcess(['--upstream', service.url, ...watching], { TMPDIR: tmp });
      try {
        const boundary = 'jwe-proxy-boundary';
        const head =
          kind === 'multipart'
            ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
            : '';
        const type =
          kind === 'multipart'
            ? `multipart/form-data; boundary=${boundary}`
            : kind === 'watching'
              ? 'application/json\r\nX-Encryption: JWE'
              : 'application/octet-stream';
        await new Promise<void>((resolve, reject) => {
          const socket = connect(proxy.port, '127.0.0.1', () => {
            socket.write(
              `POST /mr/api/v2/docs?task=smart HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
                `Content-Type: ${type}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n${head}`,
            );
            // Half a megabyte of the promised fifty, then the tool is gone.
            socket.write(Buffer.alloc(512 * 1024, 7), () => {
              socket.destroy();
              resolve();
            });
          });
          socket.on('error', reject);
        });
        const [line] = await proxy.waitForLines(1);
        expect(line).toMatch(/FAILED ERR_/);
        expect(await filesUnder(tmp)).toEqual([]);
        // Sealing mode seals this call; watching mode forwards its plaintext, which the service refuses.
        const after = await curlJson(proxy);
        if (kind === 'watching') expect(after.body).toMatchObject({ error: { type: 'jwe.required' } });
        else expect(after.body).toMatchObject({ status: 'otp_sent' });
        expect(await proxy.stop()).toBe(0);
        expect(proxy.stderr()).not.toMatch(/Unhandled|TypeError|ReferenceError| {4}at /);
        expect(await filesUnder(tmp)).toEqual([]);
      } finally {
        await proxy.stop();
        await service.close();
        await rm(tmp, { recursive: true, force: true });
      }
    });
  }
});

describe('stopping', () => {
  it('Ctrl-C waits for the exchange in flight, then stops; SIGTERM cuts one off and stops cleanly', async () => {
    const held: ServerResponse[] = [];
    let arrived: () => void = () => {};
    const slow = await upstream((request, response) => {
      request.resume();
      request.on('end', () => {
        held.push(response);
        arrived();
      });
    });
    try {
      const proxy = await startProxyProcess(['--upstream', slow.url]);
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const call = curlJson(proxy, '/held');
      await reached;
      proxy.child.kill('SIGINT');
      // The proxy stops taking requests but keeps the one in flight: its answer still arrives.
      const envelope = encryptSync('{"drained":true}', KEY, { kid: KID });
      held[0]!.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(envelope));
      const result = await call;
      expect(result.body).toEqual({ drained: true });
      expect(await proxy.exited()).toBe(0);

      const second = await startProxyProcess(['--upstream', slow.url]);
      const reachedAgain = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const cut = curlJson(second, '/held');
      await reachedAgain;
      second.child.kill('SIGTERM');
      expect(await second.exited()).toBe(0);
      const outcome = await cut;
      expect(outcome.code).not.toBe(0);
      expect(second.stderr()).toContain('Proxy stopped.');
    } finally {
      await closeServer(slow.server);
    }
  });
});

describe('redirects are never followed', () => {
  it('a redirect to another origin after a sealed request is refused; one on the upstream points back at the proxy', async () => {
    const redirecting = await upstream((request, response) => {
      request.resume();
      request.on('end', () => {
        const location = request.url === '/away' ? 'http://elsewhere.invalid/collect' : '/moved';
        response.writeHead(307, { location }).end();
      });
    });
    const proxy = await startProxyProcess(['--upstream', redirecting.url]);
    try {
      const away = await curlJson(proxy, '/away');
      expect(away.code).toBe(22);
      expect(away.body).toMatchObject({ error: { code: 'ERR_PROXY_REDIRECT_OFF_ORIGIN' } });
      const home = await runTool('curl', ['-sS', '-i', `${proxy.url}/here`]);
      expect(home.stdout).toMatch(/^HTTP\/1\.1 307/);
      expect(home.stdout).toMatch(
        new RegExp(`^location: http://127\\.0\\.0\\.1:${proxy.port}/moved\\r?$`, 'mi'),
      );
    } finally {
      expect(await proxy.stop()).toBe(0);
      await closeServer(redirecting.server);
    }
  });
});
