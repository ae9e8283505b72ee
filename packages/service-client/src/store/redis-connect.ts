import { redactedUrl, StoreError } from './errors.js';
import type { RedisClientLike } from './redis-client.js';
import { type RedisStoreOptions, redisStore } from './redis-store.js';
import type { KeyValueStore } from './types.js';

export interface ConnectRedisStoreOptions extends RedisStoreOptions {
  /** Which library to connect with. Default: `ioredis` when it is installed, else `redis`. */
  client?: 'ioredis' | 'redis';
  /** How long to wait for the first connection before failing, ms. Default 5000. */
  connectTimeoutMs?: number;
  /**
   * Where the store says that its connection was lost (once per outage, with the cause) and that
   * it is back (once). Default `console.error`.
   */
  log?: (line: string) => void;
}

/** A store on a connection it opened itself; `close()` ends that connection. */
export interface ConnectedRedisStore extends KeyValueStore {
  close(): Promise<void>;
}

interface OpenedClient {
  client: RedisClientLike;
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): void;
  connect(): Promise<unknown>;
  /** Stops reconnecting and drops the connection at once. */
  abort(): void;
  close(): Promise<unknown>;
}

// Both clients reconnect by themselves, every 0.2 s at first and then every 2 s; while they are
// disconnected, commands fail at once instead of waiting in an offline queue.
const backoff = (attempt: number) => Math.min(200 * attempt, 2000);

/** The library, or `ERR_STORE_CLIENT_MISSING` when it is not installed. */
async function load<T>(name: 'ioredis' | 'redis', loader: () => Promise<T>): Promise<T> {
  try {
    return await loader();
  } catch (cause) {
    throw new StoreError(
      'ERR_STORE_CLIENT_MISSING',
      `connectRedisStore(): the Redis client ${JSON.stringify(name)} could not be loaded: npm install ioredis (or npm install redis).`,
      { cause },
    );
  }
}

async function openIoredis(url: string, connectTimeout: number): Promise<OpenedClient> {
  // The named export: what `default` is differs between ESM and CommonJS loading.
  const { Redis } = await load('ioredis', () => import('ioredis'));
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout,
    retryStrategy: backoff,
  });
  return {
    client: client as unknown as RedisClientLike,
    on: (event, listener) => void client.on(event, listener),
    connect: () => client.connect(),
    abort: () => client.disconnect(),
    close: () => client.quit(),
  };
}

interface NodeRedisClient {
  on(event: string, listener: (error?: unknown) => void): unknown;
  connect(): Promise<unknown>;
  destroy?: () => void;
  disconnect?: () => Promise<void>;
  close?: () => Promise<unknown>;
  quit?: () => Promise<unknown>;
}

async function openNodeRedis(url: string, connectTimeout: number): Promise<OpenedClient> {
  const { createClient } = await load('redis', () => import('redis'));
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout, reconnectStrategy: backoff },
  }) as unknown as NodeRedisClient;
  return {
    client: client as unknown as RedisClientLike,
    on: (event, listener) => void client.on(event, listener),
    connect: () => client.connect(),
    // node-redis 5 has destroy(); 4 has disconnect().
    abort: () => void (client.destroy ? client.destroy() : client.disconnect?.().catch(() => {})),
    close: () => (client.close ?? client.quit ?? (async () => {})).call(client),
  };
}

async function open(which: ConnectRedisStoreOptions['client'], url: string, timeout: number) {
  if (which === 'redis') return openNodeRedis(url, timeout);
  if (which === 'ioredis') return openIoredis(url, timeout);
  try {
    return await openIoredis(url, timeout);
  } catch (error) {
    if ((error as StoreError).code !== 'ERR_STORE_CLIENT_MISSING') throw error;
    return openNodeRedis(url, timeout);
  }
}

/**
 * Connects to Redis at `url` (with `ioredis`, or `redis` when that is the one installed) and
 * returns a {@link ConnectedRedisStore}. It fails with `ERR_STORE_UNREACHABLE` when Redis does not
 * answer within `connectTimeoutMs`, instead of retrying in the background. Once connected, it
 * listens to the client's `error` events itself (one log line per outage, one when the
 * connection is back), reconnects by itself, and fails store calls at once while disconnected.
 */
export async function connectRedisStore(
  url: string,
  options: ConnectRedisStoreOptions = {},
): Promise<ConnectedRedisStore> {
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    throw new TypeError('connectRedisStore(): pass a redis:// or rediss:// URL, e.g. process.env.REDIS_URL.');
  }
  const where = redactedUrl(url);
  const timeout = options.connectTimeoutMs ?? 5000;
  const log = options.log ?? ((line: string) => console.error(line));
  const opened = await open(options.client, url, timeout);
  let connected = false;
  let lost = false;
  let lastError: unknown;
  // Its own listener: without one, a client reports every failed reconnect as an unhandled error.
  opened.on('error', (error) => {
    lastError = error;
    if (!connected || lost) return;
    lost = true;
    const cause = (error as { code?: string; message?: string })?.code ?? (error as Error)?.message;
    log(`redis store ${where}: connection lost (${cause}); reconnecting, store calls fail until it is back.`);
  });
  opened.on('ready', () => {
    if (!lost) return;
    lost = false;
    log(`redis store ${where}: connected again.`);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      opened.connect(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeout);
      }),
    ]);
  } catch (error) {
    opened.abort();
    const cause = lastError ?? error;
    const reason = (cause as { code?: string })?.code ?? (cause as Error)?.message ?? 'error';
    throw new StoreError(
      'ERR_STORE_UNREACHABLE',
      `Redis at ${where} is unreachable (${reason}; waited up to ${timeout} ms): start it, or check REDIS_URL.`,
      { cause },
    );
  } finally {
    clearTimeout(timer);
  }
  connected = true;
  const store = redisStore(opened.client, options);
  return { ...store, close: async () => void (await opened.close()) };
}
