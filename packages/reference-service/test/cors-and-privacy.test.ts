import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../src/index.js';
import { bearer, login, startTestService, type TestService, type Tokens } from './support/service.js';

const ORIGIN = 'http://127.0.0.1:5173';
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
let t: TestService;
let alpha: Tokens;
let beta: Tokens;

beforeAll(async () => {
  t = await startTestService({}, { corsOrigins: [ORIGIN, 'https://app.example.org'] });
  alpha = await login(t.url, 'alpha');
  beta = await login(t.url, 'beta');
});
afterAll(() => t.close());

describe('CORS (CORS_ORIGINS)', () => {
  it('answers a preflight from a listed origin for the JWE headers', async () => {
    const response = await fetch(`${t.url}/mr/api/v2/docs`, {
      method: 'OPTIONS',
      headers: {
        origin: ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-encryption, authorization',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const allowed = response.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const header of ['content-type', 'x-encryption', 'authorization']) expect(allowed).toContain(header);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('vary')).toMatch(/origin/i);
  });

  it('exposes X-Encryption on answers to a listed origin, including errors', async () => {
    const response = await fetch(`${t.url}/connect-auth/v1/account/login`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'alpha', client_secret: 'wrong-secret-123' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('access-control-expose-headers')).toBe('X-Encryption');
  });

  it('gives an unlisted origin no CORS headers, and none by default', async () => {
    const preflight = await fetch(`${t.url}/mr/api/v2/docs`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const plain = await startTestService();
    try {
      const response = await fetch(`${plain.url}/mr/api/v2/docs`, {
        method: 'OPTIONS',
        headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
      });
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('stored documents', () => {
  async function upload(tokens: Tokens, bytes: Uint8Array) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'scan.pdf');
    const response = await fetch(`${t.url}/mr/api/v2/docs`, {
      method: 'POST',
      headers: bearer(tokens),
      body: form,
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { document_id: string };
  }

  it('keeps documents and their records 0600 in a 0700 folder, with a 0700 folder for uploads in flight', async () => {
    const record = await upload(alpha, randomBytes(5000));
    expect(await modeOf(t.docsDir)).toBe(0o700);
    expect(await modeOf(join(t.docsDir, 'incoming'))).toBe(0o700);
    expect(await modeOf(join(t.docsDir, record.document_id))).toBe(0o600);
    expect(await modeOf(join(t.docsDir, `${record.document_id}.json`))).toBe(0o600);
    // Nothing left in flight: the upload handler's private folder inside incoming/ is empty.
    const inFlight = await readdir(join(t.docsDir, 'incoming'), { recursive: true });
    expect(inFlight.filter((name) => name.includes('/'))).toEqual([]);
  });

  it("belong to the client that uploaded them: another client's token gets 404", async () => {
    const record = await upload(alpha, randomBytes(100));
    const own = await fetch(`${t.url}/mr/api/v2/docs/${record.document_id}`, { headers: bearer(alpha) });
    expect(own.status).toBe(200);
    const other = await fetch(`${t.url}/mr/api/v2/docs/${record.document_id}`, { headers: bearer(beta) });
    expect(other.status).toBe(404);
    const staticToken = await fetch(`${t.url}/mr/api/v2/docs/${record.document_id}`, {
      headers: { authorization: 'Bearer static-token-1' },
    });
    expect(staticToken.status).toBe(404);
  });

  it("give each static ACCESS_TOKENS entry its own owner: token B cannot read token A's document", async () => {
    const two = await startTestService({}, { tokens: ['static-token-a1', 'static-token-b2'] });
    try {
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(randomBytes(100))]), 'a.pdf');
      const uploaded = await fetch(`${two.url}/mr/api/v2/docs`, {
        method: 'POST',
        headers: as('static-token-a1'),
        body: form,
      });
      expect(uploaded.status).toBe(200);
      const { document_id } = (await uploaded.json()) as { document_id: string };
      const path = `${two.url}/mr/api/v2/docs/${document_id}`;
      expect((await fetch(path, { headers: as('static-token-a1') })).status).toBe(200);
      expect((await fetch(path, { headers: as('static-token-b2') })).status).toBe(404);
    } finally {
      await two.close();
    }
  });

  it('makes an existing, wider DOCS_DIR private at start', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'docs-mode-'));
    const docsDir = join(parent, 'docs');
    await mkdir(docsDir);
    await chmod(docsDir, 0o755);
    const service = await startService({
      keys: { k: 'mode-test-key-16' },
      tokens: ['x-token-123'],
      port: 0,
      docsDir,
      uploadLimit: '1mb',
      workflow: { clients: {} },
      generated: {},
    });
    try {
      expect(await modeOf(docsDir)).toBe(0o700);
      expect(await modeOf(join(docsDir, 'audio'))).toBe(0o700);
    } finally {
      await service.close();
      await rm(parent, { recursive: true, force: true });
    }
  });
});
