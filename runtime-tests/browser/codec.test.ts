import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CodecRun,
  expectBrowserPage,
  expectCodecScenarios,
  type PageFacts,
} from '../scenarios/expectations.js';
import { BUNDLERS } from '../support/bundle.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

type CodecPageRun = CodecRun & { page: PageFacts };

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe.each(BUNDLERS)('the codec browser build, bundled with %s, in Chromium', (bundler) => {
  it('seals JSON and a Blob in the page, opens sealed answers and errors, refuses a wrong key', async () => {
    const { result: run, pageErrors } = await harness.run<CodecPageRun>(bundler, 'codec');
    expect(pageErrors).toEqual([]);
    expectBrowserPage(run.page, harness.origin.url);
    expect(run.backend).toBe('webcrypto');
    // The scenarios read X-Encryption in the page, so the service exposes it to this origin.
    await expectCodecScenarios(run, harness.service);
  });
});

describe('CORS is real', () => {
  it('a page from an origin the service does not list cannot read its answers', async () => {
    const { result: run } = await harness.run<CodecPageRun>('esbuild', 'codec', { fromOtherOrigin: true });
    expect(run.page.origin).toBe(harness.origin.otherOriginUrl);
    expect(run.json).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'Failed to fetch' } });
  });
});
