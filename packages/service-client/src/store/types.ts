/**
 * The shared state behind webhook replay and duplicate protection and the shared token pair.
 * Every method is atomic for one key. Implementations: {@link MemoryStore} (one process) and
 * `redisStore()` from `@jwe-transport/service-client/redis` (many processes).
 */
export interface KeyValueStore {
  /** Sets `key` only when it is absent (`SET NX` with expiry); true when this call set it. */
  claim(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value of `key`, or undefined when it is absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Sets `key`, replacing any value, with an expiry. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes `key` when it still holds `value` (so a lock or claim is released only by its owner). */
  release(key: string, value: string): Promise<void>;
}
