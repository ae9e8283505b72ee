import type { KeyValueStore } from '../store/types.js';
import { decodeHeld, encodeHeld, type HeldTokens, isFresh } from './held-tokens.js';

export interface SharedRenewal {
  store: KeyValueStore;
  /** Key of the shared pair; the lock is `<key>:lock`. */
  key: string;
  /** How long one process may hold the renewal lock. */
  lockMs: number;
  now: () => number;
}

/** How long the shared pair is kept: until its refresh token ends, else a day. */
function keepMs(held: HeldTokens, now: number): number {
  const until = held.refreshExpiresAt ?? held.renewAt;
  return until === undefined ? 86_400_000 : Math.max(1000, until - now);
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Renews through the store so that N processes behind one client id renew once: whoever takes
 * the lock (`SET NX` with expiry) renews from the newest shared pair (refresh tokens may rotate)
 * and publishes the result; the others wait for it and read it. A holder that dies frees the lock
 * when it expires.
 */
export async function renewShared(
  shared: SharedRenewal,
  rejected: string | undefined,
  renew: (newest: HeldTokens | undefined) => Promise<HeldTokens>,
): Promise<HeldTokens> {
  const { store, key, lockMs, now } = shared;
  const lockKey = `${key}:lock`;
  const owner = `${now()}-${Math.random().toString(36).slice(2)}`;
  let waitMs = 20;
  for (;;) {
    const published = decodeHeld(await store.get(key));
    if (isFresh(published, now(), rejected)) return published;
    if (await store.claim(lockKey, owner, lockMs)) {
      try {
        // Another process may have published between our read and our lock.
        const newest = decodeHeld(await store.get(key));
        if (isFresh(newest, now(), rejected)) return newest;
        const held = await renew(newest);
        await store.set(key, encodeHeld(held), keepMs(held, now()));
        return held;
      } finally {
        await store.release(lockKey, owner);
      }
    }
    await pause(waitMs);
    waitMs = Math.min(waitMs * 2, 250);
  }
}
