// A 200 MiB upload through the interceptor, measured in a child process: the file streams from
// disk into the envelope and onto the socket, and the client never holds it whole.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import { type LargeFile, MiB } from '@jwe-transport/test-support/client/large-file';
import { largeUploadFixture } from '@jwe-transport/test-support/client/large-upload-fixture';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const child = fileURLToPath(new URL('./upload-child.mjs', import.meta.url));

interface ChildReport {
  status: number;
  body: { encrypted: boolean; file: { size: number; sha256: string }; bytes: number };
  arrayBuffersGrowth: number;
  rssGrowth: number;
}

type Mode = 'request' | 'fetch' | 'global-fetch';

async function upload(mode: string, url: string, file: LargeFile, undiciName: string): Promise<ChildReport> {
  const { stdout } = await run(process.execPath, [child, mode, url, file.path, undiciName, SHARED_KEY], {
    maxBuffer: MiB,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildReport;
}

export function largeUploadSuite(
  undiciName: string,
  fetchModes: readonly Mode[] = ['fetch', 'global-fetch'],
) {
  describe(`a 200 MiB upload through jweInterceptor (${undiciName})`, () => {
    const fixture = largeUploadFixture(startJweServer, 120_000);

    it('streams it with undici.request, in bounded client memory', async () => {
      const { server, file } = fixture;
      const report = await upload('request', `${server.url}/v1/docs`, file, undiciName);
      expect(report.status).toBe(200);
      expect(server.last().streamed).toBe(true);
      expect(report.body.file).toMatchObject({ size: file.size, sha256: file.sha256 });
      // The file is 200 MiB and its base64 267 MiB; streaming holds a few chunks at a time.
      expect(report.arrayBuffersGrowth).toBeLessThan(48 * MiB);
    }, 180_000);

    // undici's fetch keeps every chunk of a request body it streams until the request completes,
    // with or without a dispatcher in between (the "-plain" baseline shows it). The interceptor
    // must add no copy of its own: the envelope streams, and memory stays at fetch's own level.
    for (const mode of fetchModes) {
      it(`streams it with ${mode}, adding no copy to what fetch itself holds`, async () => {
        const { server, file } = fixture;
        const baseline = await upload(`${mode}-plain`, `${server.url}/v1/docs?discard=1`, file, undiciName);
        expect(baseline.body.bytes).toBeGreaterThan(file.size);
        const report = await upload(mode, `${server.url}/v1/docs`, file, undiciName);
        expect(report.status).toBe(200);
        expect(server.last().streamed).toBe(true);
        expect(report.body.file).toMatchObject({ size: file.size, sha256: file.sha256 });
        expect(report.arrayBuffersGrowth).toBeLessThan(baseline.arrayBuffersGrowth + 48 * MiB);
      }, 180_000);
    }
  });
}
