import { createHash } from 'node:crypto';
import { OTHER_KEY, SHARED_KEY } from '@jwe-transport/test-support/client/jwe-server';
import type { ConformancePeer, PeerHandle, PeerRecord } from '@jwe-transport/test-support/client-conformance';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { createJweHttp, sealedEnvelope } from '../../src/index.js';
import { createJweMockAgent } from '../../src/undici/index.js';

/*
 * The client conformance suite's peer, built from the kit's public API only: createJweHttp's
 * handlers answer the way test-support's real server does (its query-string protocol: fail=N,
 * status=NNN, reply=html|wrongkey|marked-garbage), served by MSW's setupServer in Node or by
 * createJweMockAgent for undici. A plain MSW handler in front records the wire and then falls
 * through; the jweHttp handler records what it opened and answers.
 */

const KID = 'client-1';

function handlers(origin: string, requests: PeerRecord[]): RequestHandler[] {
  const jweHttp = createJweHttp({ keys: { [KID]: SHARED_KEY } });
  const byRequest = new Map<string, PeerRecord>();
  const attempts = new Map<string, number>();

  // Records the wire and falls through; for the fail-closed cases it is itself the misbehaving
  // server (plain MSW, as a test would mock one).
  const recorder = http.all(`${origin}/*`, async ({ request, requestId }) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const record: PeerRecord = {
      path: url.pathname,
      encrypted: false,
      headers,
      wire: await request.clone().text(),
    };
    requests.push(record);
    byRequest.set(requestId, record);
    const status = Number(url.searchParams.get('status') ?? 200);
    switch (url.searchParams.get('reply')) {
      case 'html':
        return new HttpResponse('<html><body>Bad gateway</body></html>', {
          status,
          headers: { 'content-type': 'text/html' },
        });
      case 'marked-garbage':
        return new HttpResponse('{"not":"an envelope"}', {
          status,
          headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
        });
      case 'wrongkey':
        return HttpResponse.json(await sealedEnvelope({ error: 'sealed elsewhere' }, { key: OTHER_KEY }), {
          status,
          headers: { 'x-encryption': 'JWE' },
        });
      default:
        return undefined;
    }
  });

  const service = jweHttp.all(`${origin}/*`, async ({ request, requestId, jwe }) => {
    const url = new URL(request.url);
    const record = byRequest.get(requestId);
    if (record === undefined) throw new Error('the recorder did not see this request');
    record.encrypted = jwe.encrypted;
    if (jwe.file) {
      const bytes = new Uint8Array(await request.arrayBuffer());
      record.file = { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    } else if (jwe.encrypted) record.json = await request.json();
    const attempt = (attempts.get(url.pathname) ?? 0) + 1;
    attempts.set(url.pathname, attempt);
    if (attempt <= Number(url.searchParams.get('fail') ?? 0)) {
      return new HttpResponse('try again', { status: 503, headers: { 'content-type': 'text/plain' } });
    }
    return HttpResponse.json(
      {
        method: request.method,
        path: url.pathname,
        encrypted: record.encrypted,
        json: record.json ?? null,
        file: record.file ?? null,
      },
      { status: Number(url.searchParams.get('status') ?? 200) },
    );
  });
  return [recorder, service];
}

/** createJweHttp under setupServer (msw/node): what fetch, ky and axios reach in Node. */
export const mswPeer: ConformancePeer = {
  name: 'MSW (createJweHttp, setupServer)',
  realSocket: false,
  async start(): Promise<PeerHandle> {
    const origin = 'https://api.example.test';
    const requests: PeerRecord[] = [];
    const server = setupServer(...handlers(origin, requests));
    server.listen({ onUnhandledRequest: 'error' });
    return { url: origin, origin, requests, close: async () => server.close() };
  },
};

/** The same handlers in createJweMockAgent: what undici's request() and fetch() reach. */
export const mockAgentPeer: ConformancePeer = {
  name: 'undici MockAgent (createJweMockAgent)',
  realSocket: false,
  async start(): Promise<PeerHandle> {
    const origin = 'http://api.example.test';
    const requests: PeerRecord[] = [];
    const agent = createJweMockAgent(handlers(origin, requests));
    return { url: origin, origin, requests, dispatcher: agent, close: () => agent.close() };
  },
};
