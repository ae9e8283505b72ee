import type { Request, Response } from 'express';

/**
 * The 401 answer of every route: the service's documented error form `{error: {code, msg}}`,
 * with a stable `code` and a message that says what to send. An unread body (an upload) is not
 * drained: the connection is closed instead.
 */
export function sendUnauthorized(
  req: Request,
  res: Response,
  code: string,
  msg: string,
  challenge = 'Bearer realm="jwe-transport"',
): void {
  res.setHeader('WWW-Authenticate', challenge);
  if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined) {
    res.setHeader('Connection', 'close');
  }
  res.status(401).json({ error: { code, msg } });
}
