import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientRun,
  expectBrowserPage,
  expectClientScenarios,
  type PageFacts,
} from '../scenarios/expectations.js';
import { BUNDLERS } from '../support/bundle.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

/** Page entries in browser/entries/, one per client package and way of calling it. */
const CLIENTS = [
  { entry: 'fetch-ky-plugin', label: 'the fetch wrapper of @jwe-transport/ky-plugin' },
  { entry: 'ky-plugin', label: 'ky with @jwe-transport/ky-plugin' },
];

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe.each(CLIENTS)('$label in Chromium', ({ entry }) => {
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
