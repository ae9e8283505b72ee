import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningServer } from './adapter.js';

/**
 * Listens on 127.0.0.1 with a port the OS picks. `close` also drops open keep-alive connections,
 * so a test's teardown never waits for a client's idle socket.
 */
export function listenLocal(server: Server): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
