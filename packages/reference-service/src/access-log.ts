import type { RequestHandler } from 'express';

/**
 * One line per request: method, path, status and how it arrived, or `aborted` when the client's
 * connection ended before an answer (an upload cut off mid-body). Never bodies, tokens or keys.
 */
export function accessLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const path = req.path;
    res.on('finish', () => {
      const how = req.jwe?.encrypted ? `jwe kid=${req.jwe.kid ?? '-'}` : 'plain';
      log(`${req.method} ${path} ${res.statusCode} ${how}`);
    });
    res.on('close', () => {
      if (!res.writableFinished) log(`${req.method} ${path} aborted before an answer`);
    });
    next();
  };
}
