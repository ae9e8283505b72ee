// A 200 MiB upload through useJwe with axios's http adapter, measured in a child process: the
// envelope streams from disk to the socket and the client never holds the file whole.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { MiB } from '@jwe-transport/test-support/client/large-file';
import { largeUploadFixture } from '@jwe-transport/test-support/client/large-upload-fixture';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./helpers/upload-child.mjs', import.meta.url));

describe('a 200 MiB upload through useJwe', () => {
  const fixture = largeUploadFixture(startJweServer, 120_000);

  it("streams it with axios's http adapter, in bounded client memory", async () => {
    const { server, file } = fixture;
    const { stdout } = await run(
      process.execPath,
      [child, 'http', `${server.url}/v1/docs`, file.path, SHARED_KEY],
      {
        maxBuffer: MiB,
      },
    );
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      status: number;
      body: { file: { size: number; sha256: string } };
      arrayBuffersGrowth: number;
    };
    expect(report.status).toBe(200);
    expect(server.last().streamed).toBe(true);
    expect(report.body.file).toMatchObject({ size: file.size, sha256: file.sha256 });
    // The file is 200 MiB and its base64 267 MiB; streaming holds a few chunks at a time.
    expect(report.arrayBuffersGrowth).toBeLessThan(48 * MiB);
  }, 180_000);
});
