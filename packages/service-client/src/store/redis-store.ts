import { type RedisClientLike, redisCommand } from './redis-client.js';
import type { KeyValueStore } from './types.js';

export interface RedisStoreOptions {
  /** Prefix of every key, so one Redis can serve several applications. Default `jwe-transport:`. */
  prefix?: string;
}

// Deletes the key only when it still holds the caller's value, in one step on the server.
const RELEASE_IF_OWNER =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * A store on Redis: `claim` is `SET key value PX ttl NX`, `release` deletes only the caller's own
 * value (a Lua compare-and-delete). The client is `new Redis(url)` from `ioredis` or a connected
 * `createClient({ url })` from `redis`; its connection (and an `error` listener on it) is the
 * caller's. Store calls reject while the client cannot reach Redis, or wait in its offline queue:
 * receivers bound each call (`storeTimeoutMs`).
 */
export function redisStore(client: RedisClientLike, options: RedisStoreOptions = {}): KeyValueStore {
  const command = redisCommand(client);
  const prefix = options.prefix ?? 'jwe-transport:';
  const ttl = (ms: number) => Math.max(1, Math.ceil(ms));
  return {
    async claim(key, value, ttlMs) {
      return (await command(['SET', prefix + key, value, 'PX', ttl(ttlMs), 'NX'])) === 'OK';
    },
    async get(key) {
      const value = await command(['GET', prefix + key]);
      return typeof value === 'string' ? value : undefined;
    },
    async set(key, value, ttlMs) {
      await command(['SET', prefix + key, value, 'PX', ttl(ttlMs)]);
    },
    async release(key, value) {
      await command(['EVAL', RELEASE_IF_OWNER, 1, prefix + key, value]);
    },
  };
}
