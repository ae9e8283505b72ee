// A server that refuses an upload as Bun does: it reads a little of the body, answers 413 with an
// encrypted JSON body, then closes the connection with the rest of the upload unread, so the
// kernel resets it and the client's next write fails (EPIPE or ECONNRESET).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FlattenedEncrypt } from 'jose';
import { afterAll, beforeAll } from 'vitest';
import { type LargeFile, MiB, makeLargeFile } from './large-file.js';

export const HANGUP_KEY = 'k3y-0f-16-chars!';
export const REFUSAL = { error: { type: 'entity.too.large', message: 'the upload is too large' } };

export interface HangupServer {
  url: string;
  origin: string;
  /** How many requests it refused, and the headers of the last one. */
  refused: number;
  lastHeaders: IncomingMessage['headers'] | undefined;
  close(): Promise<void>;
}

async function sealedRefusal(): Promise<string> {
  const key = new TextEncoder().encode(HANGUP_KEY + HANGUP_KEY);
  const envelope = await new FlattenedEncrypt(new TextEncoder().encode(JSON.stringify(REFUSAL)))
    .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
    .encrypt(key);
  return JSON.stringify(envelope);
}

export interface HangupOptions {
  /** Answer the refusal as plain JSON instead. */
  plain?: boolean;
  /** `false`: hang up without answering at all. */
  answer?: boolean;
}

/** Starts it on 127.0.0.1, port 0. */
export async function startHangupServer({
  plain = false,
  answer = true,
}: HangupOptions = {}): Promise<HangupServer> {
  const body = plain ? JSON.stringify(REFUSAL) : await sealedRefusal();
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    ...(plain ? {} : { 'x-encryption': 'JWE' }),
  };
  const state = { refused: 0, lastHeaders: undefined as IncomingMessage['headers'] | undefined };
  const server = createServer((request, response) => {
    state.lastHeaders = request.headers;
    request.once('data', () => {
      request.pause();
      state.refused++;
      if (!answer) {
        request.socket.destroy();
        return;
      }
      response.writeHead(413, headers).end(body);
      // End the connection once the answer is out: FIN, then a reset for the unread upload.
      request.socket.destroySoon();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    origin,
    get refused() {
      return state.refused;
    },
    get lastHeaders() {
      return state.lastHeaders;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For the enclosing `describe`: a hang-up server and a 64 MiB file on disk, far more than the
 * socket buffers of both ends hold, so that the server answers in the middle of the upload.
 */
export function useHangupFixture(options: HangupOptions = {}) {
  const fixture = {} as { server: HangupServer; file: LargeFile };
  beforeAll(async () => {
    fixture.server = await startHangupServer(options);
    fixture.file = await makeLargeFile(64 * MiB);
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.file?.remove();
  });
  return fixture;
}
