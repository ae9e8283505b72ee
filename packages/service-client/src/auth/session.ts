import type { KeyValueStore } from '../store/types.js';
import { AuthError, isAuthError } from './errors.js';
import { type HeldTokens, holdTokens, isFresh } from './held-tokens.js';
import { renewShared, type SharedRenewal } from './shared-renewal.js';
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
  /**
   * Share the pair with other processes through this store (e.g. `redisStore()`), so that N
   * processes behind one client id log in and refresh once: one takes a lock (`SET NX` with
   * expiry) and renews, the others wait for the new pair and read it. The store then holds the
   * tokens: it must be as trusted as the client secret.
   */
  store?: KeyValueStore;
  /** The store key of the shared pair; give each client id its own. Default `tokens:default`. */
  storeKey?: string;
  /** How long one process may hold the renewal lock, in ms. Default 15 000. */
  lockMs?: number;
}

/** How often the session went to the service; useful for logs and tests. */
export interface TokenSessionStats {
  logins: number;
  refreshes: number;
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
  readonly #shared: SharedRenewal | undefined;
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
    this.#shared =
      options.store === undefined
        ? undefined
        : {
            store: options.store,
            key: options.storeKey ?? 'tokens:default',
            lockMs: Math.max(1000, options.lockMs ?? 15_000),
            now: this.#now,
          };
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
    if (isFresh(this.#held, this.#now())) return this.#held.pair.access_token;
    return (await this.#renew(undefined)).pair.access_token;
  }

  /**
   * The service answered 401 to `rejected`: renew unless another caller already did, and return the
   * token to retry with.
   */
  async renewAfterRejection(rejected: string): Promise<string> {
    if (this.#pending) return (await this.#pending).pair.access_token;
    if (this.#held && this.#held.pair.access_token !== rejected) return this.#held.pair.access_token;
    return (await this.#renew(rejected)).pair.access_token;
  }

  /** Forgets the tokens; the next request logs in again. */
  clear(): void {
    this.#held = undefined;
  }

  #renew(rejected: string | undefined): Promise<HeldTokens> {
    const shared = this.#shared;
    const renewal = shared
      ? renewShared(shared, rejected, (newest) => this.#obtain(newest ?? this.#held))
      : this.#obtain(this.#held);
    this.#pending ??= renewal
      .then((held) => {
        this.#held = held;
        return held;
      })
      .finally(() => {
        this.#pending = undefined;
      });
    return this.#pending;
  }

  /** Refreshes `current` when possible, else logs in. */
  async #obtain(current: HeldTokens | undefined): Promise<HeldTokens> {
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
    return holdTokens(pair, this.#now(), this.#marginMs);
  }
}

/** Shorthand for `new TokenSession(options)`. */
export function createTokenSession(options: TokenSessionOptions): TokenSession {
  return new TokenSession(options);
}
