import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { withJwe } from '@jwe-transport/server-core';

export interface EchoService {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The 16-character shared key it opens every kid with. */
  key: string;
  close(): Promise<void>;
}

/**
 * The server README snippets talk to in place of `https://api.example.com`: a real JWE server
 * (this repository's server core, on 127.0.0.1 and a free port) that opens any kid with `key` and
 * answers every call with what it received, as JSON, sealed when the request was.
 */
export async function startEchoService(key: string): Promise<EchoService> {
  const handler = withJwe(
    async (request: Request) => {
      const type = request.headers.get('content-type') ?? '';
      const body = type.includes('json') ? await request.json() : null;
      return Response.json({ method: request.method, path: new URL(request.url).pathname, body });
    },
    { keys: () => key },
  );
  const server = createServer(getRequestListener(handler));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    key,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
