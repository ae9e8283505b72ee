import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

const refresh = (tokens: Tokens, bearerToken = tokens.access_token) =>
  post(
    REFRESH,
    { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
    {
      authorization: `Bearer ${bearerToken}`,
    },
  );

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
    const response = await refresh(first);
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
    expect((await refresh(one, other.access_token)).status).toBe(400);
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

    const reused = await refresh(first);
    expect(reused.status).toBe(401);
    expect((await reused.json()).error.code).toBe('ERR_REFRESH_TOKEN_REUSED');
    expect(await accepted(third)).toBe(false);
    expect((await refresh(third)).status).toBe(401);
    // Another login of the same client is a different family and keeps working.
    expect(await accepted(unrelated)).toBe(true);
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
