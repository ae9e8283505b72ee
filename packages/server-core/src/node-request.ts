import type { BodyRequest } from './open-body.js';
import type { BodySource, EventedBody } from './read-body.js';

/**
 * What the body reader needs of a Node `IncomingMessage`, typed without `node:http` so that
 * adapters that also run elsewhere (Hono) can take one where the runtime hands it over.
 */
export interface NodeRequest extends EventedBody, NodeHeaders {}

/** The headers of a Node request. */
export interface NodeHeaders {
  /** Node's request headers: lower-case names, duplicates as arrays where Node keeps them apart. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/** Whether a Node request carries a body at all (the test body-parser uses: a length or chunked framing). */
export function hasBody(request: NodeHeaders): boolean {
  return (
    request.headers['transfer-encoding'] !== undefined || request.headers['content-length'] !== undefined
  );
}

/** Header access for the body reader: one string per header (duplicates joined). */
function headerOf(request: NodeHeaders): (name: string) => string | undefined {
  return (name) => {
    const value = request.headers[name];
    return typeof value === 'string' || value === undefined ? value : value.join(', ');
  };
}

/**
 * A Node request as `openBody` takes it: its headers, and itself as the body when it has one.
 * Typed as any body source with Node's headers, since frameworks' request types (Express's) widen
 * Node's event methods.
 */
export function nodeBodyRequest(request: NodeHeaders & BodySource): BodyRequest {
  return { header: headerOf(request), body: hasBody(request) ? request : undefined };
}
