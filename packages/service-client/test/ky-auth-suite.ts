// The auth tests, run once with ky 1.x (auth-ky1.test.ts) and once with ky 2.x (auth-ky2.node22.test.ts).
import { AuthError } from '@jwe-transport/service-client';
import {
  clientCredentialsLogin,
  createTokenSession,
  refreshTokenExchange,
  type TokenSession,
} from '@jwe-transport/service-client/auth';
import { type KyRetrySource, kyAuth } from '@jwe-transport/service-client/ky';
import { afterEach, describe, expect, it } from 'vitest';
import { type AuthServer, CLIENT_ID, CLIENT_SECRET, startAuthServer } from './auth-server.js';

interface KyResponsePromise extends Promise<Response> {
  json<T>(): Promise<T>;
}
/** What the suite needs of ky; both majors have it. */
export interface KyUnderTest extends KyRetrySource {
  create(options: Record<string, unknown>): KyInstance;
}
interface KyInstance {
  get(url: string, options?: Record<string, unknown>): KyResponsePromise;
  post(url: string, options?: Record<string, unknown>): KyResponsePromise;
  extend(options: object): KyInstance;
}

interface Echo {
  token: string;
  method: string;
  body: string;
}

export function authSuite(name: string, ky: KyUnderTest): void {
  describe(`kyAuth() on ${name}`, () => {
    let server: AuthServer;
    afterEach(async () => {
      await server?.close();
    });

    async function setUp(options: { expiresIn?: number; secret?: string; margin?: number } = {}) {
      server = await startAuthServer(options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn });
      const session = createTokenSession({
        login: clientCredentialsLogin({
          baseUrl: server.url,
          clientId: CLIENT_ID,
          clientSecret: options.secret ?? CLIENT_SECRET,
        }),
        refresh: refreshTokenExchange({ baseUrl: server.url }),
        refreshMarginSeconds: options.margin ?? 30,
        now: () => server.clock.now,
      });
      const api = ky.create({ retry: { limit: 2 } }).extend(kyAuth({ session, ky }));
      return { session, api };
    }

    const many = (api: KyInstance, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, index) => api.get(`${server.url}/api/item/${index}`).json<Echo>()),
      );

    it('logs in once for concurrent first requests and sends the access token as a bearer token', async () => {
      const { session, api } = await setUp();
      const answers = await many(api, 12);
      expect(server.counts.logins).toBe(1);
      expect(session.stats).toEqual({ logins: 1, refreshes: 0 });
      const token = session.tokens?.access_token;
      expect(token).toMatch(/^at-/);
      expect(new Set(answers.map((answer) => answer.token))).toEqual(new Set([token]));
      expect(server.seen.every((header) => header === `Bearer ${token}`)).toBe(true);
    });

    it('refreshes before expires_in runs out, once for twenty waiting requests', async () => {
      const { session, api } = await setUp({ expiresIn: 60, margin: 10 });
      const first = await api.get(`${server.url}/api/one`).json<Echo>();
      // 55 s later the token has 5 s left, inside the 10 s margin: renew before using it.
      server.clock.now += 55_000;
      const answers = await many(api, 20);
      expect(server.counts.refreshes).toBe(1);
      expect(server.counts.logins).toBe(1);
      expect(server.counts.refused).toBe(0);
      const renewed = session.tokens?.access_token;
      expect(renewed).not.toBe(first.token);
      expect(answers.every((answer) => answer.token === renewed)).toBe(true);
    });

    it('after a 401 renews once for twenty concurrent requests and retries each once', async () => {
      const { session, api } = await setUp();
      const first = await api.get(`${server.url}/api/one`).json<Echo>();
      server.revokeAccessTokens();
      const answers = await many(api, 20);
      expect(server.counts.refreshes).toBe(1);
      expect(server.counts.logins).toBe(1);
      expect(server.counts.refused).toBe(20);
      expect(session.stats.refreshes).toBe(1);
      const renewed = session.tokens?.access_token;
      expect(renewed).not.toBe(first.token);
      expect(answers.every((answer) => answer.token === renewed)).toBe(true);
    });

    it('retries a POST after a 401 with its JSON body intact', async () => {
      const { api } = await setUp();
      await api.get(`${server.url}/api/warm-up`).json();
      server.revokeAccessTokens();
      const answer = await api
        .post(`${server.url}/api/notes`, { json: { note: 'Ünïcode body' } })
        .json<Echo>();
      expect(answer.method).toBe('POST');
      expect(JSON.parse(answer.body)).toEqual({ note: 'Ünïcode body' });
      expect(server.bodies.slice(-2).map((body) => JSON.parse(body))).toEqual([
        { note: 'Ünïcode body' },
        { note: 'Ünïcode body' },
      ]);
    });

    it('retries only once: a second 401 reaches the caller as an HTTPError', async () => {
      const { api } = await setUp();
      await api.get(`${server.url}/api/warm-up`).json();
      server.refuseEverything();
      const before = server.seen.length;
      const failure = await api.get(`${server.url}/api/denied`).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failure as { name?: string }).name).toBe('HTTPError');
      expect((failure as { response?: Response }).response?.status).toBe(401);
      expect(server.seen.length - before).toBe(2);
      expect(server.counts.refreshes).toBe(1);
    });

    it('logs in again when the refresh token is refused', async () => {
      const { session, api } = await setUp({ expiresIn: 60, margin: 10 });
      await api.get(`${server.url}/api/one`).json();
      server.revokeRefreshTokens();
      server.clock.now += 55_000;
      const answer = await api.get(`${server.url}/api/two`).json<Echo>();
      expect(server.counts.logins).toBe(2);
      expect(server.counts.refreshes).toBe(0);
      expect(answer.token).toBe(session.tokens?.access_token);
    });

    it('sends no token when a call opts out with context { auth: false }', async () => {
      const { api } = await setUp();
      const failure = await api.get(`${server.url}/api/public`, { context: { auth: false } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect((failure as { response?: Response }).response?.status).toBe(401);
      expect(server.seen).toEqual(['']);
      expect(server.counts.logins).toBe(0);
    });

    it('a wrong client secret fails with ERR_AUTH_LOGIN_FAILED that names the credentials, without the secret', async () => {
      const wrongSecret = 'wrong-secret-value-987';
      const { api } = await setUp({ secret: wrongSecret });
      const failure = await api.get(`${server.url}/api/one`).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(AuthError);
      const error = failure as AuthError;
      expect(error.code).toBe('ERR_AUTH_LOGIN_FAILED');
      expect(error.status).toBe(401);
      expect(error.message).toMatch(/client id and client secret/);
      expect(error.message).not.toContain(wrongSecret);
      expect(server.counts.failedLogins).toBe(1);
      expect(server.seen).toEqual([]);
    });
  });
}

/** Used by tests that need a session outside ky. */
export type { TokenSession };
