import type { KeyValueStore } from './types.js';

export interface MemoryStoreOptions {
  /** Most entries kept; when full, the entry closest to expiry leaves first. Default 10 000. */
  maxEntries?: number;
  /** The clock, in milliseconds. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * A {@link KeyValueStore} in this process's memory: the default, right for one process. Bounded
 * (`maxEntries`), entries expire, and expired entries are swept while the store is used, so it
 * starts no timer.
 */
export class MemoryStore implements KeyValueStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.#now = options.now ?? Date.now;
  }

  /** Entries held now, expired ones included until the next sweep. */
  get size(): number {
    return this.#entries.size;
  }

  async claim(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key) !== undefined) return false;
    this.#put(key, value, ttlMs);
    return true;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#put(key, value, ttlMs);
  }

  async release(key: string, value: string): Promise<void> {
    if (this.#live(key)?.value === value) this.#entries.delete(key);
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.#now()) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  #put(key: string, value: string, ttlMs: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#makeRoom();
    this.#entries.set(key, { value, expiresAt: this.#now() + Math.max(1, ttlMs) });
  }

  #makeRoom(): void {
    const now = this.#now();
    let soonest: string | undefined;
    let soonestAt = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) this.#entries.delete(key);
      else if (entry.expiresAt < soonestAt) {
        soonest = key;
        soonestAt = entry.expiresAt;
      }
    }
    if (this.#entries.size >= this.#maxEntries && soonest !== undefined) this.#entries.delete(soonest);
  }
}
