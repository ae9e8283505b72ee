import type { Request } from 'express';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const RAW_TOKEN = /^\s*(\S{1,4096})\s*$/;

/**
 * The access token a call presents: `Authorization: Bearer <token>`, or `auth: <token>`, the form
 * the service's API reference allows beside it and its JavaScript SDK sends. When both headers
 * are sent they must carry the same token; otherwise nothing is presented (the call is refused),
 * so that no header silently wins over the other.
 */
export function presentedToken(req: Request): string | undefined {
  const authorization = req.headers.authorization;
  const bearer = authorization === undefined ? undefined : (BEARER.exec(authorization)?.[1] ?? null);
  const authHeader = req.headers.auth;
  const raw =
    authHeader === undefined
      ? undefined
      : typeof authHeader === 'string'
        ? (RAW_TOKEN.exec(authHeader)?.[1] ?? null)
        : null;
  // null: a header was sent but is malformed (or repeated), which refuses the call.
  if (bearer === null || raw === null) return undefined;
  if (bearer !== undefined && raw !== undefined && bearer !== raw) return undefined;
  return bearer ?? raw;
}
