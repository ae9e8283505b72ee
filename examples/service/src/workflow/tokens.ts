import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();
const newToken = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

/** The field notes' login and refresh answer. */
export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_expires_in: number;
}

interface RefreshGrant {
  accessToken: string;
  expiresAt: number;
}

/**
 * Issues short-lived access tokens for client credentials, rotates them on refresh (each refresh
 * token works once), and checks them. In memory; counts what happened for tests and logs.
 */
export class TokenIssuer {
  readonly counts = { logins: 0, failedLogins: 0, refreshes: 0, failedRefreshes: 0 };
  readonly #clients: { id: Buffer; secret: Buffer }[];
  readonly #access = new Map<string, number>();
  readonly #refresh = new Map<string, RefreshGrant>();
  readonly #accessSeconds: number;
  readonly #refreshSeconds: number;
  readonly #now: () => number;

  constructor(options: {
    clients: Record<string, string>;
    accessTokenSeconds: number;
    refreshTokenSeconds: number;
    now: () => number;
  }) {
    this.#clients = Object.entries(options.clients).map(([id, secret]) => ({
      id: digest(id),
      secret: digest(secret),
    }));
    this.#accessSeconds = options.accessTokenSeconds;
    this.#refreshSeconds = options.refreshTokenSeconds;
    this.#now = options.now;
  }

  /** Tokens for known client credentials; undefined otherwise (one answer for a wrong id or secret). */
  login(clientId: unknown, clientSecret: unknown): TokenAnswer | undefined {
    if (typeof clientId !== 'string' || typeof clientSecret !== 'string') {
      this.counts.failedLogins++;
      return undefined;
    }
    const id = digest(clientId);
    const secret = digest(clientSecret);
    // Compare against every client so that the time taken says nothing about which part was wrong.
    let known = false;
    for (const client of this.#clients) {
      const idMatches = timingSafeEqual(client.id, id);
      const secretMatches = timingSafeEqual(client.secret, secret);
      if (idMatches && secretMatches) known = true;
    }
    if (!known) {
      this.counts.failedLogins++;
      return undefined;
    }
    this.counts.logins++;
    return this.#issue();
  }

  /** New tokens for a live refresh token issued together with `accessToken`; the old pair stops working. */
  refresh(accessToken: unknown, refreshToken: unknown): TokenAnswer | undefined {
    const grant = typeof refreshToken === 'string' ? this.#refresh.get(refreshToken) : undefined;
    if (!grant || grant.accessToken !== accessToken || this.#now() >= grant.expiresAt) {
      this.counts.failedRefreshes++;
      return undefined;
    }
    this.#refresh.delete(refreshToken as string);
    this.#access.delete(grant.accessToken);
    this.counts.refreshes++;
    return this.#issue();
  }

  /** Whether `token` is a live access token. */
  accepts(token: string): boolean {
    const expiresAt = this.#access.get(token);
    if (expiresAt === undefined) return false;
    if (this.#now() < expiresAt) return true;
    this.#access.delete(token);
    return false;
  }

  /** Ends every access token issued so far (for tests of the 401 path). */
  revokeAccessTokens(): void {
    this.#access.clear();
  }

  #issue(): TokenAnswer {
    const now = this.#now();
    this.#sweep(now);
    const accessToken = newToken('at_');
    const refreshToken = newToken('rt_');
    this.#access.set(accessToken, now + this.#accessSeconds * 1000);
    this.#refresh.set(refreshToken, { accessToken, expiresAt: now + this.#refreshSeconds * 1000 });
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: this.#accessSeconds,
      refresh_expires_in: this.#refreshSeconds,
    };
  }

  /** Keeps memory bounded under many logins: expired grants go once the maps grow. */
  #sweep(now: number): void {
    if (this.#access.size + this.#refresh.size < 10_000) return;
    for (const [token, expiresAt] of this.#access) if (now >= expiresAt) this.#access.delete(token);
    for (const [token, grant] of this.#refresh) if (now >= grant.expiresAt) this.#refresh.delete(token);
  }
}
