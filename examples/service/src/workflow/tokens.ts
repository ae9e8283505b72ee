import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

// Tokens are kept only as SHA-256 digests: a memory dump or a log line never holds a usable token.
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const newToken = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

/** The field notes' login and refresh answer. */
export interface TokenAnswer {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_expires_in: number;
}

interface AccessGrant {
  clientId: string;
  family: string;
  expiresAt: number;
}

interface RefreshGrant {
  clientId: string;
  family: string;
  accessDigest: string;
  expiresAt: number;
  /** Set once the token was exchanged; presenting it again means it leaked. */
  used: boolean;
}

/** Every token descended from one login, so that a leaked refresh token can end all of them. */
interface Family {
  access: Set<string>;
  refresh: Set<string>;
  expiresAt: number;
}

export type RefreshOutcome =
  | { ok: true; answer: TokenAnswer }
  | { ok: false; reason: 'unknown' | 'mismatch' | 'reused' };

/**
 * Issues access tokens for client credentials and rotates them on refresh: each refresh token
 * works once, and presenting a used one revokes every token of its login (RFC 6819 5.2.2.3;
 * OAuth 2.0 Security BCP, refresh token rotation). In memory, bounded by expiry sweeps.
 */
export class TokenIssuer {
  readonly counts = { logins: 0, failedLogins: 0, refreshes: 0, failedRefreshes: 0, revokedFamilies: 0 };
  readonly #clients: { id: string; idDigest: Buffer; secretDigest: Buffer }[];
  readonly #access = new Map<string, AccessGrant>();
  readonly #refresh = new Map<string, RefreshGrant>();
  readonly #families = new Map<string, Family>();

  constructor(
    clients: Record<string, string>,
    private readonly options: { accessSeconds: number; refreshSeconds: number; now: () => number },
  ) {
    const raw = (text: string) => createHash('sha256').update(text).digest();
    this.#clients = Object.entries(clients).map(([id, secret]) => ({
      id,
      idDigest: raw(id),
      secretDigest: raw(secret),
    }));
  }

  /** Tokens for known client credentials; undefined otherwise (one answer for a wrong id or secret). */
  login(clientId: string, clientSecret: string): TokenAnswer | undefined {
    const id = createHash('sha256').update(clientId).digest();
    const secret = createHash('sha256').update(clientSecret).digest();
    // Compare against every client so that the time taken says nothing about which part was wrong.
    let known: string | undefined;
    for (const client of this.#clients) {
      const idMatches = timingSafeEqual(client.idDigest, id);
      const secretMatches = timingSafeEqual(client.secretDigest, secret);
      if (idMatches && secretMatches) known = client.id;
    }
    if (known === undefined) {
      this.counts.failedLogins++;
      return undefined;
    }
    this.counts.logins++;
    const family = randomUUID();
    this.#families.set(family, { access: new Set(), refresh: new Set(), expiresAt: 0 });
    return this.#issue(known, family);
  }

  /** A new pair for a live, unused refresh token issued together with `accessToken`. */
  refresh(accessToken: string, refreshToken: string): RefreshOutcome {
    const now = this.options.now();
    const grant = this.#refresh.get(digest(refreshToken));
    if (!grant || now >= grant.expiresAt) {
      this.counts.failedRefreshes++;
      return { ok: false, reason: 'unknown' };
    }
    if (grant.used) {
      this.counts.failedRefreshes++;
      this.#revokeFamily(grant.family);
      return { ok: false, reason: 'reused' };
    }
    if (grant.accessDigest !== digest(accessToken)) {
      this.counts.failedRefreshes++;
      return { ok: false, reason: 'mismatch' };
    }
    grant.used = true;
    this.#access.delete(grant.accessDigest);
    this.counts.refreshes++;
    return { ok: true, answer: this.#issue(grant.clientId, grant.family) };
  }

  /** The client a live access token was issued to, or undefined. */
  clientOf(token: string): string | undefined {
    const key = digest(token);
    const grant = this.#access.get(key);
    if (grant === undefined) return undefined;
    if (this.options.now() < grant.expiresAt) return grant.clientId;
    this.#access.delete(key);
    return undefined;
  }

  /** Ends every access token issued so far (for tests of the 401 path). */
  revokeAccessTokens(): void {
    this.#access.clear();
  }

  #revokeFamily(id: string): void {
    if (this.#dropFamily(id)) this.counts.revokedFamilies++;
  }

  #dropFamily(id: string): boolean {
    const family = this.#families.get(id);
    if (!family) return false;
    for (const key of family.access) this.#access.delete(key);
    for (const key of family.refresh) this.#refresh.delete(key);
    return this.#families.delete(id);
  }

  #issue(clientId: string, familyId: string): TokenAnswer {
    const now = this.options.now();
    this.#sweep(now);
    const accessToken = newToken('at_');
    const refreshToken = newToken('rt_');
    const accessDigest = digest(accessToken);
    const refreshDigest = digest(refreshToken);
    const refreshExpiresAt = now + this.options.refreshSeconds * 1000;
    this.#access.set(accessDigest, {
      clientId,
      family: familyId,
      expiresAt: now + this.options.accessSeconds * 1000,
    });
    this.#refresh.set(refreshDigest, {
      clientId,
      family: familyId,
      accessDigest,
      expiresAt: refreshExpiresAt,
      used: false,
    });
    const family = this.#families.get(familyId)!;
    family.access.add(accessDigest);
    family.refresh.add(refreshDigest);
    family.expiresAt = refreshExpiresAt;
    return {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: this.options.accessSeconds,
      refresh_expires_in: this.options.refreshSeconds,
    };
  }

  /** Keeps memory bounded under many logins: whole expired families go once the maps grow. */
  #sweep(now: number): void {
    if (this.#refresh.size < 10_000) return;
    for (const [id, family] of this.#families) if (now >= family.expiresAt) this.#dropFamily(id);
  }
}
