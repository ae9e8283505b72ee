import type { JweServer } from '@jwe-transport/server-core';
import {
  isEncryptedHeader,
  isPlainJson,
  type OpenedBody,
  openPlainJson,
  openRequestBody,
  parseOpenedPlaintext,
  type ResponseKey,
  readAll,
  refuseEarly,
} from '@jwe-transport/server-core/adapter';
import type { Context } from 'hono';

/** On @hono/node-server, `c.env.incoming` is Node's request: read it directly, without a Web stream. */
export function nodeIncoming(
  c: Context,
): (AsyncIterable<Uint8Array> & { headers: Record<string, unknown> }) | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return typeof incoming === 'object' && incoming !== null && Symbol.asyncIterator in incoming
    ? (incoming as AsyncIterable<Uint8Array> & { headers: Record<string, unknown> })
    : undefined;
}

/** Opens the request's body, reading Node's request directly where Hono runs on Node. */
export async function openHonoRequest(server: JweServer, c: Context): Promise<OpenedBody> {
  const incoming = nodeIncoming(c);
  const header = c.req.header('x-encryption');
  const hasBody =
    c.req.header('content-length') !== undefined || c.req.header('transfer-encoding') !== undefined;
  if (!incoming || !hasBody) return openRequestBody(server, c.req.raw);
  const limit = server.options.limit;
  if (!isEncryptedHeader(header)) {
    if (!isPlainJson(c.req.header('content-type'), c.req.header('content-length'))) {
      return openRequestBody(server, c.req.raw);
    }
    const opened = await server.openPlain(true);
    refuseEarly(c.req.header('content-encoding'), c.req.header('content-length'), limit);
    return openPlainJson(server, opened, await readAll(incoming, limit));
  }
  refuseEarly(c.req.header('content-encoding'), c.req.header('content-length'), limit);
  const opened = await server.openEnvelope(await readAll(incoming, limit));
  const { text, value } = parseOpenedPlaintext(server, opened);
  return { ...opened, text, body: value };
}

/** Answers sealed by `c.json` itself, which the middleware must not seal again. */
export const sealedByJson = new WeakSet<Response>();

/**
 * Makes `c.json(value)` seal `value` under the request's key as it builds the answer, so the
 * answer stays the runtime's cheap response and is not read back and rebuilt afterwards.
 */
export function sealJsonAnswers(c: Context, server: JweServer, key: ResponseKey): void {
  const json = c.json;
  c.json = ((value: unknown, ...rest: unknown[]) => {
    const envelope = server.sealNow(JSON.stringify(value) ?? '', key);
    if (envelope === undefined) return (json as (...args: unknown[]) => Response)(value, ...rest);
    c.header('X-Encryption', 'JWE');
    c.header('Content-Type', 'application/json; charset=UTF-8');
    if (server.variesByEncryption) c.header('Vary', 'X-Encryption', { append: true });
    const response = (c.body as (...args: unknown[]) => Response)(envelope, ...rest);
    sealedByJson.add(response);
    return response;
  }) as typeof c.json;
}
