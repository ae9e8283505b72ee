// A client conformance case for clients that retry streamed uploads: a file from disk above
// streamThreshold, refused once with 503, is sealed afresh from the file for the retry. Opt-in
// (not part of clientConformance) until every adapter streams its retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MiB, makeLargeFile } from '../client/large-file.js';
import type { RecordingServer } from '../client/recording-server.js';
import { SHARED_KEY } from '../client/recording-server.js';
import { type Attempt, startRetryServer } from '../client/streamed-retry-server.js';
import type { ClientDriver, DriverClient } from './index.js';

export function streamedRetryConformance(driver: ClientDriver, size = 3 * MiB + 11): void {
  describe(`client conformance: ${driver.name}, a streamed upload from disk retried after a 503`, () => {
    let server: RecordingServer<Attempt>;
    let client: DriverClient;
    let file: Awaited<ReturnType<typeof makeLargeFile>>;
    let route = 0;
    beforeAll(async () => {
      server = await startRetryServer();
      file = await makeLargeFile(size);
      const origin = new URL(server.url).origin;
      client = await driver.create({ key: SHARED_KEY, kid: 'client-1', origin, streamThreshold: MiB });
    });
    afterAll(async () => {
      await client?.close?.();
      await server?.close();
      await file?.remove();
    });

    for (const mode of driver.retryModes) {
      for (const asForm of [false, true]) {
        it(`${mode}, ${asForm ? 'in a FormData' : 'as the body'}: both attempts stream the whole file, under two IVs`, async () => {
          const path = `/streamed-retry-${++route}`;
          const answer = await client.post(
            `${server.url}${path}?fail=1`,
            { kind: 'disk', path: file.path, asForm },
            {
              retry: mode,
            },
          );
          const original = { size, sha256: file.sha256 };
          expect(answer).toMatchObject({ status: 200, decrypted: true, json: { file: original } });
          const attempts = server.requests.filter((record) => record.path === path);
          expect(attempts.map((attempt) => [attempt.streamed, attempt.file])).toEqual([
            [true, original],
            [true, original],
          ]);
          expect(attempts[0]!.iv).toBeTypeOf('string');
          expect(attempts[0]!.iv).not.toBe(attempts[1]!.iv);
        });
      }
    }
  });
}
