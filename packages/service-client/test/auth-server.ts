// A small token service for the auth tests: the documented login and refresh endpoints, and a
// protected echo route. Real HTTP on 127.0.0.1; its clock is the tests' so that expiry needs no sleeping.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CLIENT_ID = 'client-under-test';
export const CLIENT_SECRET = 'secret-under-test-1234';

export interface AuthServer {
  url: string;
  clock: { now: number };
  counts: { logins: number; failedLogins: number; refreshes: number; refused: number; served: number };
  /** Every Authorization header the echo route saw, in order. */
  seen: string[];
  /** Request bodies the echo route saw, in order. */
  bodies: string[];
  /** Invalidates every access token issued so far (the next requests get 401). */
  revokeAccessTokens(): void;
  /** Invalidates every refresh token issued so far. */
  revokeRefreshTokens(): void;
  /** Makes every access token, also new ones, fail (401 forever). */
  refuseEverything(): void;
  close(): Promise<void>;
}

interface Issued {
  expiresAt: number;
  valid: boolean;
}

export async function startAuthServer(options: { expiresIn?: number } = {}): Promise<AuthServer> {
  const expiresIn = options.expiresIn ?? 60;
  const clock = { now: 1_000_000_000_000 };
  const access = new Map<string, Issued>();
  const refresh = new Map<string, Issued>();
  const counts = { logins: 0, failedLogins: 0, refreshes: 0, refused: 0, served: 0 };
  const seen: string[] = [];
  const bodies: string[] = [];
  let refuseAll = false;

  const issue = () => {
    const pair = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    access.set(pair.access_token, { expiresAt: clock.now + expiresIn * 1000, valid: true });
    refresh.set(pair.refresh_token, { expiresAt: clock.now + 10 * expiresIn * 1000, valid: true });
    return { ...pair, expires_in: expiresIn, refresh_expires_in: 10 * expiresIn };
  };
  const usable = (issued: Issued | undefined) => issued?.valid && clock.now < issued.expiresAt;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  const server = createServer(async (req, res) => {
    const text = await read(req);
    const body = (() => {
      try {
        return JSON.parse(text) as Record<string, unknown>;
      } catch {
        return {};
      }
    })();
    if (req.method === 'POST' && req.url === '/connect-auth/v1/account/login') {
      if (body.client_id !== CLIENT_ID || body.client_secret !== CLIENT_SECRET) {
        counts.failedLogins++;
        return send(res, 401, { error: 'invalid_client' });
      }
      counts.logins++;
      return send(res, 200, issue());
    }
    if (req.method === 'POST' && req.url === '/connect-auth/v1/account/refresh-token') {
      const known = refresh.get(String(body.refresh_token));
      // Field notes: the refresh call carries the access token as a bearer token too.
      if (
        !usable(known) ||
        !access.has(String(body.access_token)) ||
        req.headers.authorization !== `Bearer ${String(body.access_token)}`
      )
        return send(res, 401, { error: 'invalid_grant' });
      counts.refreshes++;
      known!.valid = false;
      return send(res, 200, issue());
    }
    if (req.url?.startsWith('/api/')) {
      const header = req.headers.authorization ?? '';
      seen.push(header);
      bodies.push(text);
      const token = /^Bearer (.+)$/.exec(header)?.[1];
      if (refuseAll || token === undefined || !usable(access.get(token))) {
        counts.refused++;
        return send(res, 401, { error: 'unauthorized' });
      }
      counts.served++;
      return send(res, 200, { token, method: req.method, body: text });
    }
    send(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clock,
    counts,
    seen,
    bodies,
    revokeAccessTokens: () => {
      for (const issued of access.values()) issued.valid = false;
    },
    revokeRefreshTokens: () => {
      for (const issued of refresh.values()) issued.valid = false;
    },
    refuseEverything: () => {
      refuseAll = true;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
