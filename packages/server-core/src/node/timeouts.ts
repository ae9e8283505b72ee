import type { Server } from 'node:http';

export interface UploadTimeouts {
  /** Longest a whole request may take, in ms. Default 600 000 (10 min): 500 MB at 1 MB/s gets through. */
  requestTimeout?: number;
  /** Longest a connection may send nothing, in ms. Default 30 000: a client that stalls is dropped. */
  idleTimeout?: number;
}

export const DEFAULT_REQUEST_TIMEOUT = 600_000;
export const DEFAULT_IDLE_TIMEOUT = 30_000;

/**
 * Sets a Node HTTP server's timeouts for large uploads. Node's own default `requestTimeout`
 * (300 s) cuts off a 500 MB upload on a 1 MB/s link, and it has no idle limit by default, so a
 * client that opens a request and goes quiet holds its socket for the whole request timeout.
 */
export function setUploadTimeouts(server: Server, options: UploadTimeouts = {}): Server {
  const requestTimeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
  const idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
  for (const [name, value] of Object.entries({ requestTimeout, idleTimeout })) {
    if (!Number.isInteger(value) || value < 0)
      throw new TypeError(`setUploadTimeouts: "${name}" must be a whole number of ms.`);
  }
  server.requestTimeout = requestTimeout;
  // Node's socket inactivity timeout: destroys a connection that has been silent this long.
  server.setTimeout(idleTimeout, (socket) => socket.destroy());
  return server;
}
