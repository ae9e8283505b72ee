import type { JweServer } from '@jwe-transport/server-core';
import {
  type NodeRequest,
  nodeBodyRequest,
  type OpenedBody,
  openBody,
  openRequestBody,
} from '@jwe-transport/server-core/adapter';
import type { Context } from 'hono';

/** The stream state of a Node request that tells whether anything has begun to read it. */
interface NodeReadState extends NodeRequest {
  readonly httpVersionMajor?: number;
  readonly readableDidRead?: boolean;
  readonly readableFlowing?: boolean | null;
}

/**
 * Whether `raw` is `@hono/node-server`'s request for `incoming` and has not built its Web
 * `Request` yet. Once built (anything that asked for the body or the signal), that request may
 * begin to read `incoming` at any moment and pause it, so the body is left to it. The server keeps
 * both under symbols it does not export; where they are not found, the body is left to `raw` too.
 */
function wrapsUnbuilt(raw: Request, incoming: object): boolean {
  let wraps = false;
  for (const symbol of Object.getOwnPropertySymbols(raw)) {
    if (symbol.description === 'requestCache') return false;
    if (symbol.description === 'incomingKey')
      wraps = (raw as unknown as Record<symbol, unknown>)[symbol] === incoming;
  }
  return wraps;
}

/**
 * The HTTP/1 Node request under `@hono/node-server` (its `c.env.incoming`) while nothing has begun
 * to read it: no data read, never set flowing or paused, no Web `Request` built around it.
 * Anywhere else, `undefined`.
 */
function untouchedNodeRequest(c: Context): NodeRequest | undefined {
  const incoming = (c.env as { incoming?: Partial<NodeReadState> } | undefined)?.incoming;
  if (typeof incoming !== 'object' || incoming === null) return undefined;
  const untouched =
    typeof incoming.on === 'function' &&
    typeof incoming.pause === 'function' &&
    typeof incoming.headers === 'object' &&
    // HTTP/1 framing tells from the headers alone whether a body follows; HTTP/2 may send one without a length.
    incoming.httpVersionMajor === 1 &&
    incoming.readableDidRead === false &&
    incoming.readableFlowing === null;
  return untouched && wrapsUnbuilt(c.req.raw, incoming) ? (incoming as NodeRequest) : undefined;
}

/**
 * Reads and opens the request's body once. On Node it reads the Node request itself: the Web
 * `Request` that `@hono/node-server` would build to read it (a transferable stream and an abort
 * signal) costs more than opening the envelope. Everywhere else, and on Node once anything else
 * may have begun to read the body, it reads `c.req.raw`.
 */
export function openHonoRequest(server: JweServer, c: Context): Promise<OpenedBody> {
  const incoming = untouchedNodeRequest(c);
  return incoming ? openBody(server, nodeBodyRequest(incoming)) : openRequestBody(server, c.req.raw);
}
