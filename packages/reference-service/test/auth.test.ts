import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/index.js';
import {
  bearer,
  CLIENTS,
  grant,
  login,
  startTestService,
  type TestService,
  type Tokens,
} from './support/service.js';

const LOGIN = '/connect-auth/v1/account/login';
const REFRESH = '/connect-auth/v1/account/refresh-token';
const LEGACY_REFRESH = '/connect-auth/v1/account/refresh';
let t: TestService;

beforeAll(async () => {
  t = await startTestService({ loginAttemptsPerMinute: 5, accessTokenSeconds: 60 });
});
afterAll(() => t.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** The documented refresh, with both required headers. */
const refresh = (tokens: Tokens, clientId = 'alpha', bearerToken = tokens.access_token) =>
  post(
    REFRESH,
    { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
    { authorization: `Bearer ${bearerToken}`, 'client-id': clientId },
  );

/** A login sent from another loopback address than the tests' default 127.0.0.1. */
function loginFrom(localAddress: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      `${t.url}${LOGIN}`,
      {
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Whether an access token is accepted by a workflow route (the grant answers 200 for its owner). */
async function accepted(tokens: Tokens): Promise<boolean> {
  const response = await fetch(
    `${t.url}/v1/file-upload?txn_id=probe-${Math.random().toString(36).slice(2)}&action=ekascribe-v2`,
    {
      method: 'POST',
      headers: bearer(tokens),
    },
  );
  await response.body?.cancel();
  return response.status === 200;
}

describe('login', () => {
  it('answers the documented token pair for each configured client', async () => {
    for (const clientId of ['alpha', 'beta'] as const) {
      const tokens = await login(t.url, clientId);
      expect(tokens).toEqual({
        access_token: expect.stringMatching(/^at_/),
        refresh_token: expect.stringMatching(/^rt_/),
        expires_in: 60,
        refresh_expires_in: 86_400,
      });
      expect(await accepted(tokens)).toBe(true);
    }
  });

  it('takes an encrypted body under the service keys and answers encrypted', async () => {
    t.clock.now += 120_000;
    const envelope = await encryptJson(
      { client_id: 'beta', client_secret: CLIENTS.beta },
      'svc-shared-key-1',
      {
        kid: 'k1',
      },
    );
    const response = await post(LOGIN, envelope, { 'x-encryption': 'JWE' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-encryption')).toBe('JWE');
    const tokens = await decryptJson<Tokens>(await response.json(), 'svc-shared-key-1');
    expect(await accepted(tokens)).toBe(true);
  });

  it('refuses a wrong secret or unknown id with one 401', async () => {
    t.clock.now += 120_000; // a fresh rate-limit window
    for (const body of [
      { client_id: 'alpha', client_secret: CLIENTS.beta },
      { client_id: 'nobody', client_secret: CLIENTS.alpha },
    ]) {
      const response = await post(LOGIN, body);
      expect(response.status).toBe(401);
      expect((await response.json()).error).toMatchObject({ code: 'ERR_INVALID_CLIENT' });
    }
    expect((await post(LOGIN, { client_id: 'alpha' })).status).toBe(400);
  });

  it('limits attempts per client id in a one-minute window, without affecting other clients', async () => {
    t.clock.now += 120_000;
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await post(LOGIN, { client_id: 'alpha', client_secret: 'wrong-secret' })).status).toBe(401);
    }
    const limited = await post(LOGIN, { client_id: 'alpha', client_secret: CLIENTS.alpha });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await limited.json()).error.code).toBe('ERR_TOO_MANY_LOGINS');
    expect((await login(t.url, 'beta')).access_token).toMatch(/^at_/);
    t.clock.now += 60_000;
    expect((await login(t.url, 'alpha')).access_token).toMatch(/^at_/);
  });

  it('limits by client id and source address together, so the rightful client still gets in from elsewhere', async () => {
    t.clock.now += 120_000;
    // An attacker at 127.0.0.3 who knows the id spends the whole window with wrong secrets.
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await loginFrom('127.0.0.3', { client_id: 'alpha', client_secret: 'wrong-secret' })).toBe(401);
    }
    expect(await loginFrom('127.0.0.3', { client_id: 'alpha', client_secret: CLIENTS.alpha })).toBe(429);
    // The rightful client, at its own address, is not locked out.
    expect(await loginFrom('127.0.0.2', { client_id: 'alpha', client_secret: CLIENTS.alpha })).toBe(200);
    expect((await login(t.url, 'alpha')).access_token).toMatch(/^at_/);
  });

  it('counts unknown client ids in one shared window, so guessing ids gains no attempts', async () => {
    t.clock.now += 120_000;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await post(LOGIN, { client_id: `guess-${attempt}`, client_secret: 'whatever-secret' });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(t.url, 'alpha')).access_token).toMatch(/^at_/);
  });
});

describe('refresh', () => {
  it('takes the bearer header and both tokens, answers a new pair and retires the old one', async () => {
    t.clock.now += 120_000;
    const first = await login(t.url, 'alpha');
    const response = await refresh(first);
    expect(response.status).toBe(200);
    const second = (await response.json()) as Tokens;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await accepted(second)).toBe(true);
    expect(await accepted(first)).toBe(false);
  });

  it('works with an expired access token, which is what refresh is for', async () => {
    const first = await login(t.url, 'beta');
    t.clock.now += 61_000;
    expect(await accepted(first)).toBe(false);
    const response = await refresh(first, 'beta');
    expect(response.status).toBe(200);
    expect(await accepted((await response.json()) as Tokens)).toBe(true);
  });

  it('refuses a request without the matching bearer header, or a pair that was not issued together', async () => {
    const one = await login(t.url, 'alpha');
    const other = await login(t.url, 'alpha');
    const noBearer = await post(REFRESH, {
      access_token: one.access_token,
      refresh_token: one.refresh_token,
    });
    expect(noBearer.status).toBe(400);
    expect((await refresh(one, 'alpha', other.access_token)).status).toBe(400);
    const mixed = await refresh({ ...one, access_token: other.access_token });
    expect(mixed.status).toBe(401);
    expect((await mixed.json()).error.code).toBe('ERR_TOKEN_PAIR_MISMATCH');
    // Neither pair was spent by the refused attempts.
    expect((await refresh(one)).status).toBe(200);
    expect((await refresh(other)).status).toBe(200);
  });

  it('revokes every token of the login when a rotated refresh token is presented again', async () => {
    const first = await login(t.url, 'alpha');
    const second = (await (await refresh(first)).json()) as Tokens;
    const third = (await (await refresh(second)).json()) as Tokens;
    expect(await accepted(third)).toBe(true);
    const unrelated = await login(t.url, 'alpha');

    t.clock.now += 5_001; // past the grace window for concurrent refreshes
    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect((await reused.json()).error.code).toBe('ERR_REFRESH_TOKEN_REUSED');
    expect(await accepted(third)).toBe(false);
    expect((await refresh(third)).status).toBe(401);
    // Another login of the same client is a different family and keeps working.
    expect(await accepted(unrelated)).toBe(true);
  });
});

describe('refresh as the service documents it and its clients send it', () => {
  it("requires the Client-Id header on the documented refresh, naming the tokens' client", async () => {
    const tokens = await login(t.url, 'alpha');
    const withoutClientId = await post(
      REFRESH,
      { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
      { authorization: `Bearer ${tokens.access_token}` },
    );
    expect(withoutClientId.status).toBe(400);
    expect((await withoutClientId.json()).error.message).toMatch(/Client-Id/);
    const otherClient = await refresh(tokens, 'beta');
    expect(otherClient.status).toBe(401);
    expect((await otherClient.json()).error.code).toBe('ERR_TOKEN_PAIR_MISMATCH');
    // The refused attempts did not spend the pair.
    expect((await refresh(tokens, 'alpha')).status).toBe(200);
  });

  it('takes the deprecated refresh with {refresh_token} only, under the same rotation and reuse rules', async () => {
    const first = await login(t.url, 'beta');
    t.clock.now += 61_000; // the access token expired: the deprecated refresh does not need it
    const response = await post(LEGACY_REFRESH, { refresh_token: first.refresh_token });
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe('true');
    const second = (await response.json()) as Tokens;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await accepted(second)).toBe(true);
    expect((await post(LEGACY_REFRESH, {})).status).toBe(400);
    const wrongClient = await post(
      LEGACY_REFRESH,
      { refresh_token: second.refresh_token },
      { 'client-id': 'alpha' },
    );
    expect(wrongClient.status).toBe(401);
    // Rotation: once the grace window is over, the first token is a reuse and revokes the login.
    t.clock.now += 5_001;
    const reused = await post(LEGACY_REFRESH, { refresh_token: first.refresh_token });
    expect(reused.status).toBe(401);
    expect((await reused.json()).error.code).toBe('ERR_REFRESH_TOKEN_REUSED');
    expect(await accepted(second)).toBe(false);
  });

  it('answers 20 concurrent refreshes of one pair with the same new pair, and revokes on reuse after the grace window', async () => {
    const first = await login(t.url, 'alpha');
    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(first)));
    expect(answers.map((response) => response.status)).toEqual(Array(20).fill(200));
    const pairs = (await Promise.all(answers.map((response) => response.json()))) as Tokens[];
    expect(new Set(pairs.map((pair) => pair.access_token)).size).toBe(1);
    expect(new Set(pairs.map((pair) => pair.refresh_token)).size).toBe(1);
    const winner = pairs[0]!;
    expect(await accepted(winner)).toBe(true);
    // The new pair refreshes as usual.
    const next = (await (await refresh(winner)).json()) as Tokens;
    expect(await accepted(next)).toBe(true);
    // After the window, the first refresh token again counts as leaked.
    t.clock.now += 5_001;
    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect((await reused.json()).error.code).toBe('ERR_REFRESH_TOKEN_REUSED');
    expect(await accepted(next)).toBe(false);
  });

  it('refreshes with the auth header, without access_token in the body, and with an application Client-Id', async () => {
    const tokens = await login(t.url, 'alpha');
    const response = await post(
      REFRESH,
      { refresh_token: tokens.refresh_token },
      { auth: tokens.access_token, 'client-id': 'doc-web' },
    );
    expect(response.status).toBe(200);
    const next = (await response.json()) as Tokens;
    expect(await accepted(next)).toBe(true);
    // A body access_token that is not the presented one is refused, as is another API client.
    const mismatched = await post(
      REFRESH,
      { access_token: tokens.access_token, refresh_token: next.refresh_token },
      { authorization: `Bearer ${next.access_token}`, 'client-id': 'alpha' },
    );
    expect(mismatched.status).toBe(400);
    const otherClient = await post(
      REFRESH,
      { refresh_token: next.refresh_token },
      { auth: next.access_token, 'client-id': 'beta' },
    );
    expect(otherClient.status).toBe(401);
    expect(await otherClient.json()).toEqual({
      error: { code: 'ERR_TOKEN_PAIR_MISMATCH', msg: expect.any(String) },
    });
  });

  it('takes the access token from the auth header on workflow calls, and refuses two different tokens', async () => {
    const tokens = await login(t.url, 'alpha');
    const viaAuth = await fetch(`${t.url}/v1/file-upload?txn_id=auth-header&action=ekascribe-v2`, {
      method: 'POST',
      headers: { auth: tokens.access_token, 'client-id': 'doc-web' },
    });
    expect(viaAuth.status).toBe(200);
    const other = await login(t.url, 'beta');
    const both = await fetch(`${t.url}/v1/file-upload?txn_id=auth-both&action=ekascribe-v2`, {
      method: 'POST',
      headers: { auth: tokens.access_token, authorization: `Bearer ${other.access_token}` },
    });
    expect(both.status).toBe(401);
    expect(await both.json()).toEqual({ error: { code: 'ERR_UNAUTHORIZED', msg: expect.any(String) } });
  });

  it('accepts a Client-Id header on every call, and refuses one that names another client', async () => {
    const tokens = await login(t.url, 'alpha');
    const own = await fetch(`${t.url}/v1/file-upload?txn_id=client-id-own&action=ekascribe-v2`, {
      method: 'POST',
      headers: { ...bearer(tokens), 'client-id': 'alpha' },
    });
    expect(own.status).toBe(200);
    const other = await fetch(`${t.url}/v1/file-upload?txn_id=client-id-other&action=ekascribe-v2`, {
      method: 'POST',
      headers: { ...bearer(tokens), 'client-id': 'beta' },
    });
    expect(other.status).toBe(401);
    expect((await other.json()).error.code).toBe('ERR_CLIENT_ID_MISMATCH');
    // An application name (the JavaScript SDK's default) names no API client: accepted.
    const application = await fetch(`${t.url}/v1/file-upload?txn_id=client-id-app&action=ekascribe-v2`, {
      method: 'POST',
      headers: { ...bearer(tokens), 'client-id': 'doc-web' },
    });
    expect(application.status).toBe(200);
  });

  it('reads the grace window from REFRESH_GRACE_SECONDS', () => {
    expect(configFromEnv({ REFRESH_GRACE_SECONDS: '2' }).workflow.refreshGraceSeconds).toBe(2);
  });
});

describe('configuration of several clients', () => {
  it('reads CLIENTS, CLIENTS_FILE and CLIENT_ID/CLIENT_SECRET together', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clients-file-'));
    try {
      const file = join(dir, 'clients.json');
      await writeFile(file, JSON.stringify({ 'from-file': 'file-secret-123' }));
      const config = configFromEnv({
        CLIENTS: JSON.stringify({ 'from-env': 'env-secret-1234' }),
        CLIENTS_FILE: file,
        CLIENT_ID: 'single',
        CLIENT_SECRET: 'single-secret-1',
        DOCS_DIR: dir,
      });
      expect(config.workflow.clients).toEqual({
        'from-file': 'file-secret-123',
        'from-env': 'env-secret-1234',
        single: 'single-secret-1',
      });
      expect(config.generated.client).toBeUndefined();
      expect(() => configFromEnv({ CLIENTS: '{"short": "x"}' })).toThrow(/at least 8 characters/);
      expect(() => configFromEnv({ CLIENTS: '[1]' })).toThrow(/JSON object/);
      expect(() => configFromEnv({ CLIENT_ID: 'only-id' })).toThrow(/both CLIENT_ID and CLIENT_SECRET/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('tokens of one client are refused on routes that need an issued token after they expire', async () => {
    const tokens = await login(t.url, 'beta');
    expect((await grant(t.url, tokens, 'cfg-expiry')).txn_id).toBe('cfg-expiry');
    t.clock.now += 61_000;
    const response = await fetch(`${t.url}/v1/file-upload?txn_id=cfg-expiry&action=ekascribe-v2`, {
      method: 'POST',
      headers: bearer(tokens),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/invalid_token/);
  });
});
