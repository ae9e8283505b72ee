import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from './helpers/run-cli.js';

let server: ChildProcessWithoutNullStreams;
let port: number;
let stderr = '';

/** One request over a real socket, with any Host header (fetch would not let us set it). */
function get(path: string, host: string | undefined, method = 'GET') {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>((resolve, reject) => {
    const headers: Record<string, string> = host === undefined ? {} : { Host: host };
    const req = request(
      { host: '127.0.0.1', port, path, method, headers, setHost: host !== undefined },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  server = spawn(process.execPath, [BIN, 'web', '--no-open', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '' },
  });
  server.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const match = /^http:\/\/127\.0\.0\.1:(\d+)\/$/m.exec(out);
      if (match) resolve(match[0]);
    });
    server.on('exit', (code) => reject(new Error(`web exited early (${code}): ${stderr}`)));
  });
  port = Number(new URL(url).port);
});

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
});

describe('jwe-transport web', () => {
  it('serves the bundled inspector page with its policy as a header, plus frame-ancestors', async () => {
    const page = await get('/', `127.0.0.1:${port}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const built = await readFile(
      fileURLToPath(new URL('../../inspector/dist/inspector.html', import.meta.url)),
      'utf8',
    );
    expect(page.body).toBe(built);
    const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page.body)?.[1];
    expect(meta).toContain("connect-src 'none'");
    expect(page.headers['content-security-policy']).toBe(`${meta}; frame-ancestors 'none'`);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect((await get('/', `localhost:${port}`)).status).toBe(200);
    expect(stderr).toContain(`Serving the envelope inspector at http://127.0.0.1:${port}/`);
  });

  it('answers only its own Host: 421 for another name (DNS rebinding), 400 without one', async () => {
    const rebound = await get('/', `attacker.example:${port}`);
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('<html');
    expect((await get('/', `127.0.0.1:${port + 1}`)).status).toBe(421);
    expect((await get('/', undefined)).status).toBe(400);
  });

  it('serves nothing else: 404 for other paths, 405 for other methods', async () => {
    expect((await get('/etc/passwd', `127.0.0.1:${port}`)).status).toBe(404);
    expect((await get('/', `127.0.0.1:${port}`, 'POST')).status).toBe(405);
  });

  it('refuses a bad --port and an input argument with a usage error', async () => {
    const bad = await runCli(['web', '--no-open', '--port', '70000']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port takes a port number');
    const busy = await runCli(['web', '--no-open', '--port', String(port)]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('EADDRINUSE');
    expect((await runCli(['web', 'file.json', '--no-open'])).code).toBe(2);
  });

  it('tolerates a missing browser opener: it prints the URL and keeps serving', async () => {
    // PATH without xdg-open: the opener fails, the server stays up and says how to go on.
    const child = spawn(process.execPath, [BIN, 'web', '--port', '0'], { env: { PATH: '/nonexistent' } });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    const url = await new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const match = /^http:\/\/127\.0\.0\.1:\d+\/$/m.exec(out);
        if (match) resolve(match[0]);
      });
    });
    await new Promise<void>((resolve) => {
      const check = () =>
        err.includes('Could not start a browser') ? resolve() : child.stderr.once('data', check);
      check();
    });
    expect(err).toContain(`open ${url} yourself`);
    expect(child.exitCode).toBeNull();
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('ships the page inside the CLI package, so `npx -p @jwe-transport/cli jwe-transport web` needs nothing else', () => {
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    });
    expect(packed.status).toBe(0);
    const files = (JSON.parse(packed.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map(
      (file) => file.path,
    );
    expect(files).toContain('dist/inspector.html');
    expect(files).toContain('dist/bin.js');
  });
});
