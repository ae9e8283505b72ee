/** The part of an `ioredis` client (5.x) the store uses: raw commands through `call`. */
export interface IoredisLike {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  status: string;
}

/** The part of a `node-redis` client (the npm package `redis`, 4.x or 5.x) the store uses. */
export interface NodeRedisLike {
  sendCommand(args: string[]): Promise<unknown>;
  isOpen: boolean;
}

/** A client of either library. */
export type RedisClientLike = IoredisLike | NodeRedisLike;

/** One Redis command, whatever the client. */
export type RedisCommand = (args: (string | number)[]) => Promise<unknown>;

function has(value: unknown, member: string, type: 'function' | 'string' | 'boolean'): boolean {
  return typeof (value as Record<string, unknown>)[member] === type;
}

/**
 * Tells the two clients apart by their shape (no `instanceof`, so any copy of either library
 * works): ioredis has `call()` and a `status` string, node-redis `sendCommand()` and `isOpen`.
 */
export function redisCommand(client: unknown): RedisCommand {
  if (client !== null && typeof client === 'object') {
    if (has(client, 'call', 'function') && has(client, 'status', 'string')) {
      const io = client as IoredisLike;
      return ([command, ...args]) => io.call(String(command), ...args);
    }
    if (has(client, 'sendCommand', 'function') && has(client, 'isOpen', 'boolean')) {
      const node = client as NodeRedisLike;
      return (args) => node.sendCommand(args.map(String));
    }
  }
  throw new TypeError(
    'redisStore(): pass an ioredis client (new Redis(url)) or a node-redis client (createClient({ url }), connected).',
  );
}
