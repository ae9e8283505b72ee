import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { RunningServer } from './index.js';

/** Serves a Web fetch handler on 127.0.0.1 through @hono/node-server's Request/Response bridge. */
export function serveFetch(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<RunningServer> {
  return new Promise((resolve) => {
    const server = serve({ fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise((done) => {
            (server as Server).closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
