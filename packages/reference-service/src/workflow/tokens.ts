import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  randomUUID,
  timingSafeEqual,
} from 'node:crypto';

// Tokens are kept only as SHA-256 digests: a memory dump or a log line never holds a usable token.
const digest = (text: string) => createHash('sha256').update(text).digest('base64url');
const newToken = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

/** The login and refresh answer (docs/wire-format.md, "Auth"). */
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
  /** Set once the token was exchanged; presenting it again after the grace window means it leaked. */
  used: boolean;
  /**
   * The pair this token was exchanged for, kept for the grace window so that concurrent refreshes
   * of one pair all get it. Sealed under a key derived from the refresh token itself, so memory
   * holds no usable token: only a caller presenting that refresh token can open it.
   */
  successor?: { sealed: Buffer; until: number };
}

/** Every token descended from one login, so that a leaked refresh token can end all of them. */
interface Family {
  access: Set<string>;
  refresh: Set<string>;
  expiresAt: number;
}

/** What a refresh presents besides the refresh token. */
export interface RefreshRequest {
  /** The documented refresh sends the access token issued with the refresh token; the deprecated one does not. */
  accessToken?: string;
  /** The `Client-Id` header, when the caller sent one: it must name the token's client. */
  clientId?: string;
}

const graceKey = (refreshToken: string) => createHash('sha256').update(`grace\0${refreshToken}`).digest();

function seal(answer: TokenAnswer, refreshToken: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', graceKey(refreshToken), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(answer), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]);
}

function unseal(sealed: Buffer, refreshToken: string): TokenAnswer {
  const decipher = createDecipheriv('aes-256-gcm', graceKey(refreshToken), sealed.subarray(0, 12));
  decipher.setAuthTag(sealed.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8'));
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
  readonly counts = {
    logins: 0,
    failedLogins: 0,
    refreshes: 0,
    /** Refreshes answered with the pair already issued, within the grace window. */
    graceRefreshes: 0,
    failedRefreshes: 0,
    revokedFamilies: 0,
  };
  readonly #clients: { id: string; idDigest: Buffer; secretDigest: Buffer }[];
  readonly #access = new Map<string, AccessGrant>();
  readonly #refresh = new Map<string, RefreshGrant>();
  readonly #families = new Map<string, Family>();

  constructor(
    clients: Record<string, string>,
    private readonly options: {
      accessSeconds: number;
      refreshSeconds: number;
      /** How long a used refresh token still answers the pair it was exchanged for, ms. */
      graceMs: number;
      now: () => number;
    },
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

  /**
   * A new pair for a live, unused refresh token (issued together with `request.accessToken` when
   * given). Within the grace window a used token answers the pair it was already exchanged for, so
   * that concurrent refreshes of one pair (several requests of one client at expiry) all succeed;
   * after it, presenting a used token revokes every token of its login.
   */
  refresh(refreshToken: string, request: RefreshRequest = {}): RefreshOutcome {
    const now = this.options.now();
    const grant = this.#refresh.get(digest(refreshToken));
    if (!grant || now >= grant.expiresAt) {
      this.counts.failedRefreshes++;
      return { ok: false, reason: 'unknown' };
    }
    const mismatched =
      (request.accessToken !== undefined && grant.accessDigest !== digest(request.accessToken)) ||
      (request.clientId !== undefined && request.clientId !== grant.clientId);
    if (grant.used) {
      if (!mismatched && grant.successor && now < grant.successor.until) {
        this.counts.graceRefreshes++;
        return { ok: true, answer: unseal(grant.successor.sealed, refreshToken) };
      }
      this.counts.failedRefreshes++;
      this.#revokeFamily(grant.family);
      return { ok: false, reason: 'reused' };
    }
    if (mismatched) {
      this.counts.failedRefreshes++;
      return { ok: false, reason: 'mismatch' };
    }
    grant.used = true;
    this.#access.delete(grant.accessDigest);
    this.counts.refreshes++;
    const answer = this.#issue(grant.clientId, grant.family);
    if (this.options.graceMs > 0)
      grant.successor = { sealed: seal(answer, refreshToken), until: now + this.options.graceMs };
    return { ok: true, answer };
  }

  /**
   * Whether `id` is a configured API client. A `Client-Id` header that is not one (the service's
   * JavaScript SDK sends `doc-web`, an application name) says nothing about whose tokens these are.
   */
  isApiClient(id: string): boolean {
    return this.#clients.some((client) => client.id === id);
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
