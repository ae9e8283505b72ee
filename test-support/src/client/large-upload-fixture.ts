// The lifecycle every adapter's 200 MiB upload suite shares: its stand-in server and the large
// file on disk, made before the suite's tests and removed after them.
import { afterAll, beforeAll } from 'vitest';
import { type LargeFile, makeLargeFile } from './large-file.js';

export interface LargeUploadFixture<S> {
  server: S;
  file: LargeFile;
}

/** Call inside a `describe`; the fields are set once its `beforeAll` has run. */
export function largeUploadFixture<S extends { close(): Promise<void> }>(
  startServer: () => Promise<S>,
  setupTimeout?: number,
): LargeUploadFixture<S> {
  const fixture = {} as LargeUploadFixture<S>;
  beforeAll(async () => {
    fixture.server = await startServer();
    fixture.file = await makeLargeFile();
  }, setupTimeout);
  afterAll(async () => {
    await fixture.server.close();
    await fixture.file.remove();
  });
  return fixture;
}
