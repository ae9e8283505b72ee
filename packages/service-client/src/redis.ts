/**
 * `@jwe-transport/service-client/redis`: a {@link KeyValueStore} on Redis through `ioredis`, for
 * receivers and token sessions on more than one instance.
 * @packageDocumentation
 */
import type { KeyValueStore } from './store/types.js';

/** The part of an `ioredis` client (5.x) the store uses. */
export interface IoredisLike {
  set(key: string, value: string, px: 'PX', ttlMs: number, nx: 'NX'): Promise<'OK' | null>;
  set(key: string, value: string, px: 'PX', ttlMs: number): Promise<'OK' | null>;
  get(key: string): Promise<string | null>;
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
  /** Prefix of every key, so one Redis can serve several applications. Default `jwe-transport:`. */
  prefix?: string;
}

// Deletes the key only when it still holds the caller's value, in one step on the server.
const RELEASE_IF_OWNER =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * A store on Redis: `claim` is `SET key value PX ttl NX`, `release` deletes only the caller's own
 * value (a Lua compare-and-delete). `new Redis(url)` from `ioredis` is the client; its connection
 * is the caller's to open and close.
 */
export function redisStore(client: IoredisLike, options: RedisStoreOptions = {}): KeyValueStore {
  if (client === null || typeof client !== 'object' || typeof client.set !== 'function') {
    throw new TypeError('redisStore(): pass an ioredis client, e.g. new Redis(process.env.REDIS_URL).');
  }
  const prefix = options.prefix ?? 'jwe-transport:';
  const ttl = (ms: number) => Math.max(1, Math.ceil(ms));
  return {
    async claim(key, value, ttlMs) {
      return (await client.set(prefix + key, value, 'PX', ttl(ttlMs), 'NX')) === 'OK';
    },
    async get(key) {
      return (await client.get(prefix + key)) ?? undefined;
    },
    async set(key, value, ttlMs) {
      await client.set(prefix + key, value, 'PX', ttl(ttlMs));
    },
    async release(key, value) {
      await client.eval(RELEASE_IF_OWNER, 1, prefix + key, value);
    },
  };
}

export type { KeyValueStore } from './store/types.js';
