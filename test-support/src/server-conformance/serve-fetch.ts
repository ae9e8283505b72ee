import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { RunningServer } from './index.js';

/**
 * Serves a Web fetch handler on 127.0.0.1 through @hono/node-server's Request/Response bridge.
 * `overrideGlobalObjects: false` keeps Node's own Request and Response in place, for tests whose
 * client runs in the same process and must build genuine Responses.
 */
export function serveFetch(
  fetch: (request: Request) => Response | Promise<Response>,
  { overrideGlobalObjects = true }: { overrideGlobalObjects?: boolean } = {},
): Promise<RunningServer> {
  return new Promise((resolve) => {
    const options = { fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects };
    const server = serve(options, (info: AddressInfo) => {
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
