import { isJsonMediaType, type JweClient } from '@jwe-transport/client-core/adapter';
import type { Dispatcher } from 'undici';

/** Request headers that describe the plaintext body, replaced for an envelope. */
const REPLACED = new Set(['content-type', 'content-length', 'x-encryption']);

function contentTypeOf(headers: Record<string, unknown>): string | null {
  for (const name in headers) {
    if (name.length === 12 && name.toLowerCase() === 'content-type') return String(headers[name]);
  }
  return null;
}

/**
 * The common case without a detour: a JSON string body with headers given as a record, sealed
 * synchronously by the core (when it can: a static key on Node.js) and dispatched at once.
 * Returns `undefined` for anything else, which then takes the general path.
 */
export function sealJsonInline(
  client: JweClient,
  opts: Dispatcher.DispatchOptions,
): Dispatcher.DispatchOptions | undefined {
  const { body, headers } = opts;
  if (client.options.encrypt !== 'all') return undefined;
  if (typeof body !== 'string' || headers === null || typeof headers !== 'object') return undefined;
  if (Array.isArray(headers) || Symbol.iterator in headers) return undefined;
  const record = headers as Record<string, unknown>;
  if (!isJsonMediaType(contentTypeOf(record))) return undefined;
  const envelope = client.sealJsonSync(body);
  if (envelope === undefined) return undefined;
  const sealed: Record<string, string | string[]> = {};
  for (const name in record) {
    const value = record[name];
    if (value === undefined || value === null || REPLACED.has(name.toLowerCase())) continue;
    sealed[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  sealed['content-type'] = 'application/json';
  sealed['x-encryption'] = 'JWE';
  return { ...opts, body: envelope, headers: sealed };
}
