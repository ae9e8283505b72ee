import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClientRun,
  expectBrowserPage,
  expectClientScenarios,
  type PageFacts,
} from '../scenarios/expectations.js';
import { BUNDLERS } from '../support/bundle.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

/**
 * Each client package and way of calling it: its page entry in browser/entries/ and, for axios,
 * the class of `response.request`, which shows the adapter that carried the call.
 */
const CLIENTS: Record<string, { entry: string; transport?: string }> = {
  'the fetch wrapper of @jwe-transport/client-core': { entry: 'fetch-client-core' },
  'ky 1 with @jwe-transport/ky-plugin': { entry: 'ky-plugin' },
  'ky 2 with @jwe-transport/ky-plugin': { entry: 'ky2-plugin' },
  'axios (XHR adapter) with @jwe-transport/axios-interceptor': {
    entry: 'axios-xhr',
    transport: 'XMLHttpRequest',
  },
  'axios (fetch adapter) with @jwe-transport/axios-interceptor': {
    entry: 'axios-fetch',
    transport: 'Request',
  },
};

let harness: BrowserHarness;
beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe.each(Object.keys(CLIENTS))('%s in Chromium', (client) => {
  const { entry, transport } = CLIENTS[client]!;
  it.each(BUNDLERS)(
    'bundled with %s: JSON both ways, a Blob upload, a sealed error, a wrong key',
    async (bundler) => {
      type Run = ClientRun & { page: PageFacts; transport?: unknown };
      const { result: run, pageErrors } = await harness.run<Run>(bundler, entry);
      expect(pageErrors).toEqual([]);
      expectBrowserPage(run.page, harness.origin.url);
      await expectClientScenarios(run, harness.service);
      if (transport) expect(run.transport).toEqual({ ok: true, value: transport });
    },
  );
});
