import { type JweTestServer, SHARED_KEY } from '@jwe-transport/test-support/client/jwe-server';
import { expectPlaintextProgress, type ProgressPoint } from '@jwe-transport/test-support/client/progress';
import { expect } from 'vitest';
import { createJweFetch, fileFromPath } from '../../src/index.node.js';

/**
 * Uploads the file at `path` as multipart through createJweFetch with onUploadProgress, and
 * checks that the server stored it whole and that the progress events describe its plaintext.
 */
export async function expectFileUploadProgress(
  server: JweTestServer,
  file: { path: string; size: number; sha256: string },
): Promise<void> {
  const jweFetch = createJweFetch({ key: SHARED_KEY, origins: [server.origin] });
  const events: ProgressPoint[] = [];
  const form = new FormData();
  form.set('file', await fileFromPath(file.path), 'scan.bin');
  const response = await jweFetch(`${server.url}/progress`, {
    method: 'POST',
    body: form,
    onUploadProgress: ({ loaded, total }) => events.push({ loaded, total }),
  });
  expect(response.status).toBe(200);
  expect(server.last().file).toEqual({ size: file.size, sha256: file.sha256 });
  expectPlaintextProgress(events, file.size);
}
