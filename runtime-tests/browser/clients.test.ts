import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientRun,
  expectBrowserPage,
  expectClientScenarios,
  type PageFacts,
} from '../scenarios/expectations.js';
import { BUNDLERS } from '../support/bundle.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

/** Each client package and way of calling it, by its page entry in browser/entries/. */
const CLIENTS: Record<string, string> = {
  'the fetch wrapper of @jwe-transport/client-core': 'fetch-client-core',
  'the fetch wrapper of @jwe-transport/ky-plugin': 'fetch-ky-plugin',
  'ky with @jwe-transport/ky-plugin': 'ky-plugin',
};

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe.each(Object.keys(CLIENTS))('%s in Chromium', (client) => {
  const entry = CLIENTS[client]!;
  it.each(BUNDLERS)(
    'bundled with %s: JSON both ways, a Blob upload, a sealed error, a wrong key',
    async (bundler) => {
      const { result: run, pageErrors } = await harness.run<ClientRun & { page: PageFacts }>(bundler, entry);
      expect(pageErrors).toEqual([]);
      expectBrowserPage(run.page, harness.origin.url);
      await expectClientScenarios(run, harness.service);
    },
  );
});
