/**
 * `@jwe-transport/service-client/redis`: a {@link KeyValueStore} on Redis through `ioredis` or
 * `redis` (node-redis), for receivers and token sessions on more than one instance.
 * @packageDocumentation
 */

export { isStoreError, StoreError, type StoreErrorCode } from '../store/errors.js';
export type { IoredisLike, NodeRedisLike, RedisClientLike } from '../store/redis-client.js';
export {
  type ConnectedRedisStore,
  type ConnectRedisStoreOptions,
  connectRedisStore,
} from '../store/redis-connect.js';
export { type RedisStoreOptions, redisStore } from '../store/redis-store.js';
export type { KeyValueStore } from '../store/types.js';
