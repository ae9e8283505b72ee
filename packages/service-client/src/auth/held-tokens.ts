import type { TokenPair } from './tokens.js';

/** A token pair with the moments (ms) that decide when it is renewed. */
export interface HeldTokens {
  pair: TokenPair;
  /** When to renew, or undefined when the lifetime is unknown. */
  renewAt: number | undefined;
  /** When the refresh token stops working, when known. */
  refreshExpiresAt: number | undefined;
}

export function holdTokens(pair: TokenPair, now: number, marginMs: number): HeldTokens {
  const lifetimeMs = pair.expires_in === undefined ? undefined : pair.expires_in * 1000;
  return {
    pair,
    renewAt: lifetimeMs === undefined ? undefined : now + lifetimeMs - Math.min(marginMs, lifetimeMs / 2),
    refreshExpiresAt:
      pair.refresh_expires_in === undefined ? undefined : now + pair.refresh_expires_in * 1000,
  };
}

/** Usable without renewing: not past `renewAt`, and not the token the service just rejected. */
export function isFresh(held: HeldTokens | undefined, now: number, rejected?: string): held is HeldTokens {
  if (held === undefined || held.pair.access_token === rejected) return false;
  return held.renewAt === undefined || now < held.renewAt;
}

export function encodeHeld(held: HeldTokens): string {
  return JSON.stringify(held);
}

/** Reads a shared record; anything unreadable counts as absent. */
export function decodeHeld(text: string | undefined): HeldTokens | undefined {
  if (text === undefined) return undefined;
  try {
    const record = JSON.parse(text) as Partial<HeldTokens>;
    const pair = record.pair;
    if (typeof pair?.access_token !== 'string' || typeof pair.refresh_token !== 'string') return undefined;
    return {
      pair,
      renewAt: typeof record.renewAt === 'number' ? record.renewAt : undefined,
      refreshExpiresAt: typeof record.refreshExpiresAt === 'number' ? record.refreshExpiresAt : undefined,
    };
  } catch {
    return undefined;
  }
}
