import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLERS } from '../support/bundle.js';
import {
  type Answer,
  type DocumentBody,
  type ErrorBody,
  expectBrowserPage,
  expectRegistration,
  expectServiceRefusedKey,
  expectStoredUpload,
  expectValidationError,
  type Outcome,
  type PageFacts,
  succeeded,
} from './expectations.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

type Wire<T = Record<string, unknown>> = Answer<T> & { xEncryption: string | null };
interface CodecRun {
  page: PageFacts;
  backend: string;
  json: Outcome<Wire>;
  file: Outcome<Wire<DocumentBody> & { sentSha256: string; sentSize: number }>;
  error: Outcome<Wire<ErrorBody>>;
  wrongKeyRequest: Outcome<Wire<ErrorBody>>;
  wrongKeyResponse: Outcome<Wire>;
}

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe.each(BUNDLERS)('the codec browser build, bundled with %s, in Chromium', (bundler) => {
  it('seals JSON and a Blob in the page, opens sealed answers and errors, refuses a wrong key', async () => {
    const { result: run, pageErrors } = await harness.run<CodecRun>(bundler, 'codec');
    expect(pageErrors).toEqual([]);
    expectBrowserPage(run.page, harness.origin.url);
    expect(run.backend).toBe('webcrypto');

    expectRegistration(run.json);
    // The page read X-Encryption, so the service exposes it to this origin.
    const sealed = [succeeded(run.json), succeeded(run.file), succeeded(run.error)];
    expect(sealed.map((answer) => answer.xEncryption)).toEqual(['JWE', 'JWE', 'JWE']);
    await expectStoredUpload(run.file, harness.service);
    const error = succeeded(run.error);
    expectValidationError(error.status, error.body);

    const refused = succeeded(run.wrongKeyRequest);
    expectServiceRefusedKey(refused.status, refused.body);
    expect(refused.xEncryption).toBeNull();
    expect(run.wrongKeyResponse).toMatchObject({ ok: false, error: { code: 'ERR_JWE_DECRYPTION_FAILED' } });
  });
});

describe('CORS is real', () => {
  it('a page from an origin the service does not list cannot read its answers', async () => {
    const { result: run } = await harness.run<CodecRun>('esbuild', 'codec', { fromOtherOrigin: true });
    expect(run.page.origin).toBe(harness.origin.otherOriginUrl);
    expect(run.json).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'Failed to fetch' } });
  });
});
