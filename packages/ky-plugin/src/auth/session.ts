import { AuthError, isAuthError } from './errors.js';
import type { TokenPair } from './tokens.js';

export interface TokenSessionOptions {
  /** Logs in with the client credentials, e.g. `clientCredentialsLogin({ baseUrl, clientId, clientSecret })`. */
  login: () => Promise<TokenPair>;
  /** Exchanges the refresh token for new tokens, e.g. `refreshTokenExchange({ baseUrl })`. Without it, every renewal logs in. */
  refresh?: (tokens: TokenPair) => Promise<TokenPair>;
  /**
   * Renew this many seconds before `expires_in` runs out (capped at half the lifetime, so short-lived
   * tokens are still used). Default 30.
   */
  refreshMarginSeconds?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

/** How often the session went to the service; useful for logs and tests. */
export interface TokenSessionStats {
  logins: number;
  refreshes: number;
}

interface HeldTokens {
  pair: TokenPair;
  /** When to renew (ms), or undefined when the lifetime is unknown. */
  renewAt: number | undefined;
  /** When the refresh token stops working (ms), when known. */
  refreshExpiresAt: number | undefined;
}

function wrapLoginFailure(error: unknown): AuthError {
  if (isAuthError(error)) return error;
  return new AuthError(
    'ERR_AUTH_LOGIN_FAILED',
    'Authentication failed: the login function threw. Check the client id and client secret, and the login URL.',
    { cause: error },
  );
}

/**
 * Holds the token pair of one client: logs in on first use, renews before `expires_in` runs out
 * or after the service rejected the access token, with one login or refresh in flight however
 * many requests wait for it. A rejected refresh falls back to a new login.
 */
export class TokenSession {
  readonly #login: () => Promise<TokenPair>;
  readonly #refresh: ((tokens: TokenPair) => Promise<TokenPair>) | undefined;
  readonly #marginMs: number;
  readonly #now: () => number;
  #held: HeldTokens | undefined;
  #pending: Promise<HeldTokens> | undefined;
  readonly #stats: TokenSessionStats = { logins: 0, refreshes: 0 };

  constructor(options: TokenSessionOptions) {
    if (typeof options?.login !== 'function') {
      throw new TypeError(
        'createTokenSession(): pass { login }, e.g. clientCredentialsLogin({ baseUrl, clientId, clientSecret }).',
      );
    }
    this.#login = options.login;
    this.#refresh = options.refresh;
    this.#marginMs = Math.max(0, options.refreshMarginSeconds ?? 30) * 1000;
    this.#now = options.now ?? Date.now;
  }

  get stats(): Readonly<TokenSessionStats> {
    return { ...this.#stats };
  }

  /** The current pair, if logged in. */
  get tokens(): TokenPair | undefined {
    return this.#held?.pair;
  }

  /** A valid access token: logs in or renews first when needed. */
  async accessToken(): Promise<string> {
    if (this.#pending) return (await this.#pending).pair.access_token;
    const held = this.#held;
    if (held && (held.renewAt === undefined || this.#now() < held.renewAt)) return held.pair.access_token;
    return (await this.#renew()).pair.access_token;
  }

  /**
   * The service answered 401 to `rejected`: renew unless another caller already did, and return the
   * token to retry with.
   */
  async renewAfterRejection(rejected: string): Promise<string> {
    if (this.#pending) return (await this.#pending).pair.access_token;
    if (this.#held && this.#held.pair.access_token !== rejected) return this.#held.pair.access_token;
    return (await this.#renew()).pair.access_token;
  }

  /** Forgets the tokens; the next request logs in again. */
  clear(): void {
    this.#held = undefined;
  }

  #renew(): Promise<HeldTokens> {
    this.#pending ??= this.#obtain().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #obtain(): Promise<HeldTokens> {
    const current = this.#held;
    const refresh = this.#refresh;
    const refreshUsable = current?.refreshExpiresAt === undefined || this.#now() < current.refreshExpiresAt;
    if (current && refresh && refreshUsable) {
      try {
        this.#stats.refreshes++;
        return this.#hold(await refresh(current.pair));
      } catch (error) {
        // Only a refused refresh token is worth a new login; an outage would fail the login too.
        if (!isAuthError(error) || error.code !== 'ERR_AUTH_REFRESH_FAILED') throw error;
        if (error.status !== undefined && error.status >= 500) throw error;
      }
    }
    this.#held = undefined;
    this.#stats.logins++;
    try {
      return this.#hold(await this.#login());
    } catch (error) {
      throw wrapLoginFailure(error);
    }
  }

  #hold(pair: TokenPair): HeldTokens {
    const now = this.#now();
    const lifetimeMs = pair.expires_in === undefined ? undefined : pair.expires_in * 1000;
    const held: HeldTokens = {
      pair,
      renewAt:
        lifetimeMs === undefined ? undefined : now + lifetimeMs - Math.min(this.#marginMs, lifetimeMs / 2),
      refreshExpiresAt:
        pair.refresh_expires_in === undefined ? undefined : now + pair.refresh_expires_in * 1000,
    };
    this.#held = held;
    return held;
  }
}

/** Shorthand for `new TokenSession(options)`. */
export function createTokenSession(options: TokenSessionOptions): TokenSession {
  return new TokenSession(options);
}
