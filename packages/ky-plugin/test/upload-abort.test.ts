// ky sends a streamed upload through the plugin, not through its own fetch call: the request's
// abort signal must still stop it, and the server must see the upload cut off, not completed.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type LargeFile, MiB, makeLargeFile } from '@jwe-transport/test-support/client/large-file';
import ky from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwe } from '../src/index.js';

const KEY = 'k3y-0f-16-chars!';

describe('ky 1.x with jwe(): aborting a streamed upload', () => {
  let file: LargeFile;
  beforeAll(async () => {
    file = await makeLargeFile(64 * MiB);
  });
  afterAll(() => file.remove());

  it('rejects with the AbortError and leaves the server with an incomplete body', async () => {
    let firstBytes!: () => void;
    const arrived = new Promise<void>((resolve) => {
      firstBytes = resolve;
    });
    let ended!: (outcome: { complete: boolean; received: number }) => void;
    const serverSaw = new Promise<{ complete: boolean; received: number }>((resolve) => {
      ended = resolve;
    });
    const server = createServer((request: IncomingMessage) => {
      let received = 0;
      request.on('data', (chunk: Buffer) => {
        received += chunk.length;
        firstBytes();
      });
      request.on('close', () => ended({ complete: request.complete, received }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const controller = new AbortController();
      const api = ky.create({ retry: 0 }).extend(jwe({ key: KEY, kid: 'kid-1' }));
      const call = api
        .post(`http://127.0.0.1:${port}/upload`, { body: file.blob, signal: controller.signal })
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      await arrived;
      controller.abort();
      const error = (await call) as Error | undefined;
      expect(error?.name).toBe('AbortError');
      const seen = await serverSaw;
      expect(seen.complete).toBe(false);
      expect(seen.received).toBeGreaterThan(0);
      expect(seen.received).toBeLessThan(file.size);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
