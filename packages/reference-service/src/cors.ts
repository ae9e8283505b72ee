import type { RequestHandler } from 'express';

const ALLOW_METHODS = 'GET, POST, DELETE';
const ALLOW_HEADERS = 'Content-Type, X-Encryption, Authorization, Auth, Client-Id';
const EXPOSE_HEADERS = 'X-Encryption';

/**
 * CORS for the listed origins only (`CORS_ORIGINS`; none by default): preflights for the headers
 * a JWE client sends, and `X-Encryption` readable by the page so it knows an answer is an envelope.
 * Other origins get no CORS headers, so browsers keep them out.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins.map((origin) => origin.replace(/\/+$/, '')));
  return (req, res, next) => {
    const origin = req.get('origin');
    if (allowed.size === 0 || origin === undefined) {
      next();
      return;
    }
    res.vary('Origin');
    const permitted = allowed.has(origin);
    if (permitted) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    }
    if (req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined) {
      if (permitted) {
        res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
        res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
