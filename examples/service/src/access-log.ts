import type { RequestHandler } from 'express';

/** One line per answered request: method, path, status and how it arrived. Never bodies, tokens or keys. */
export function accessLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const path = req.path;
    res.on('finish', () => {
      const how = req.jwe?.encrypted ? `jwe kid=${req.jwe.kid ?? '-'}` : 'plain';
      log(`${req.method} ${path} ${res.statusCode} ${how}`);
    });
    next();
  };
}
