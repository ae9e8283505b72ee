import type { IncomingMessage, ServerResponse } from 'node:http';

/** Request headers a browser client sends: the body's type, the envelope marker and the token. */
const ALLOWED_HEADERS = 'Content-Type, X-Encryption, Authorization';

/**
 * CORS for browser clients served from `origins` (exact origins such as `https://app.example`).
 * Mount it first: it answers preflights itself, before bearer auth, because a browser never sends
 * the token on a preflight. It exposes `X-Encryption` so that a client can tell an envelope from a
 * plain answer. Requests from other origins get no CORS headers, so the browser keeps the answer
 * from the page. Written on node:http alone, so it also runs in front of a whole app.
 */
export function corsForOrigins(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const origin = req.headers.origin;
    const listed = origin !== undefined && allowed.has(origin);
    res.appendHeader('Vary', 'Origin');
    if (listed) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', 'X-Encryption');
    }
    if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined) {
      next();
      return;
    }
    if (listed) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.statusCode = 204;
    res.end();
  };
}
