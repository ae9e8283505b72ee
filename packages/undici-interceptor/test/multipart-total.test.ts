// A multipart stream with a Content-Length (what fetch() sends for a FormData): the one file's
// size follows from it, and a file that does not come to that size is not sent as if it did.
import { startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import type { ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { expectPlaintextProgress } from '@jwe-transport/test-support/client/progress';
import { SHARED_KEY, sha256 } from '@jwe-transport/test-support/client/recording-server';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jweInterceptor } from '../src/index.js';

const BOUNDARY = 'jwe-test-boundary';
// Bodies longer than this are streamed; shorter ones are read whole and measured as they are.
const STREAMED = 100_000;
const FILE = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);

function form(file: Uint8Array): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

async function* chunks(bytes: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}

describe('jweInterceptor: the file of a multipart stream with a Content-Length', () => {
  let server: Awaited<ReturnType<typeof startJweServer>>;
  let agent: undici.Agent;
  beforeAll(async () => {
    server = await startJweServer();
    agent = new undici.Agent();
  });
  afterAll(async () => {
    await agent.close();
    await server.close();
  });

  const send = (length: number, events: ProgressPoint[], path: string) => {
    const bytes = form(FILE);
    return undici.request(`${server.url}${path}`, {
      method: 'POST',
      dispatcher: agent.compose(
        jweInterceptor({ key: SHARED_KEY, origins: [server.origin], streamThreshold: STREAMED }),
      ),
      headers: {
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(length),
      },
      body: chunks(bytes),
      onUploadProgress: ({ loaded, total }: ProgressPoint) => {
        events.push({ loaded, total });
      },
    } as unknown as Parameters<typeof undici.request>[1]);
  };

  it('reports its size as total from the first event', async () => {
    const events: ProgressPoint[] = [];
    const response = await send(form(FILE).length, events, '/total');
    expect(response.statusCode).toBe(200);
    await response.body.dump();
    expect(server.last()).toMatchObject({
      streamed: true,
      file: { size: FILE.length, sha256: sha256(FILE) },
    });
    expectPlaintextProgress(events, FILE.length);
  });

  it('aborts the upload when the file is shorter than the Content-Length says', async () => {
    const events: ProgressPoint[] = [];
    const error = await send(form(FILE).length + 5, events, '/short').then(
      async (r) => expect.fail(`the request resolved ${r.statusCode} ${await r.body.text()}`),
      (failure: Error & { code?: string }) => failure,
    );
    expect(error.code, error.message).toBe('ERR_JWE_BODY_UNSUPPORTED');
    expect(error.message).toContain('shorter');
    expect(events.at(-1)?.total).toBe(FILE.length + 5);
    expect(server.requests.filter((each) => each.path === '/short' && each.file !== undefined)).toEqual([]);
  });
});
