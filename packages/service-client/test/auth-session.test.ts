import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError } from '@jwe-transport/service-client';
import {
  clientCredentialsLogin,
  createTokenSession,
  refreshTokenExchange,
} from '@jwe-transport/service-client/auth';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthServer, CLIENT_ID, CLIENT_SECRET, startAuthServer } from './auth-server.js';

async function failureOf(promise: Promise<unknown>): Promise<AuthError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(AuthError);
  return outcome as AuthError;
}

/** The first login of a session against `baseUrl` (any client: the answers under test do not depend on it). */
function firstLoginFailure(baseUrl: string, path?: string): Promise<AuthError> {
  const login = clientCredentialsLogin({
    baseUrl,
    ...(path === undefined ? {} : { path }),
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
  });
  return failureOf(createTokenSession({ login }).accessToken());
}

describe('TokenSession and the documented auth endpoints', () => {
  let server: AuthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('concurrent accessToken() calls share one login, and a rejection renews once', async () => {
    server = await startAuthServer();
    const session = createTokenSession({
      login: clientCredentialsLogin({
        baseUrl: server.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
      }),
      refresh: refreshTokenExchange({ baseUrl: server.url }),
    });
    const tokens = await Promise.all(Array.from({ length: 10 }, () => session.accessToken()));
    expect(new Set(tokens).size).toBe(1);
    const [rejected] = tokens;
    const renewed = await Promise.all(
      Array.from({ length: 10 }, () => session.renewAfterRejection(rejected!)),
    );
    expect(new Set(renewed).size).toBe(1);
    expect(renewed[0]).not.toBe(rejected);
    // A late caller still holding the old token gets the renewed one, not another refresh.
    expect(await session.renewAfterRejection(rejected!)).toBe(renewed[0]);
    expect(server.counts).toMatchObject({ logins: 1, refreshes: 1 });
  });

  it('renews short-lived tokens at half their lifetime at the latest, not on every call', async () => {
    server = await startAuthServer({ expiresIn: 2 });
    const clock = server.clock;
    const session = createTokenSession({
      login: clientCredentialsLogin({
        baseUrl: server.url,
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
      }),
      refresh: refreshTokenExchange({ baseUrl: server.url }),
      refreshMarginSeconds: 30,
      now: () => clock.now,
    });
    const first = await session.accessToken();
    clock.now += 999;
    expect(await session.accessToken()).toBe(first);
    expect(server.counts.refreshes).toBe(0);
    clock.now += 2;
    const second = await session.accessToken();
    expect(second).not.toBe(first);
    expect(server.counts).toMatchObject({ logins: 1, refreshes: 1 });
  });

  it('an unreachable login endpoint gives ERR_AUTH_UNREACHABLE naming the address to check', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await firstLoginFailure(`http://127.0.0.1:${port}`);
    expect(error.code).toBe('ERR_AUTH_UNREACHABLE');
    expect(error.status).toBeUndefined();
    expect(error.message).toContain(`127.0.0.1:${port}/connect-auth/v1/account/login`);
    expect(error.message).toMatch(/check the base URL/);
  });

  it('a wrong login path gives a 404 message about the URL, not about the credentials', async () => {
    server = await startAuthServer();
    const error = await firstLoginFailure(server.url, '/wrong/login');
    expect(error.code).toBe('ERR_AUTH_LOGIN_FAILED');
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/base URL and the login path/);
  });

  it('a login answer without tokens gives ERR_AUTH_RESPONSE_INVALID', async () => {
    const odd = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ token: 'not-the-documented-name' }));
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const { port } = odd.address() as AddressInfo;
    try {
      const error = await firstLoginFailure(`http://127.0.0.1:${port}`);
      expect(error.code).toBe('ERR_AUTH_RESPONSE_INVALID');
      expect(error.message).toMatch(/access_token and refresh_token/);
    } finally {
      await new Promise<void>((resolve) => odd.close(() => resolve()));
    }
  });

  it('a login function that throws something else becomes ERR_AUTH_LOGIN_FAILED with the cause kept', async () => {
    const cause = new Error('vault sealed');
    const session = createTokenSession({ login: () => Promise.reject(cause) });
    const error = await failureOf(session.accessToken());
    expect(error.code).toBe('ERR_AUTH_LOGIN_FAILED');
    expect(error.cause).toBe(cause);
    expect(error.message).toMatch(/client id and client secret/);
  });
});
