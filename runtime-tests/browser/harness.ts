import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HeadlessChromium, launchChromium } from '@jwe-transport/test-support/chromium';
import { type Bundler, bundleForBrowser } from '../support/bundle.js';
import { runPageScenarios } from '../support/chromium.js';
import { type ReferenceService, startReferenceService } from '../support/reference-service.js';
import { type StaticOrigin, serveStatic } from '../support/static-origin.js';

/** The reference service, a second origin serving the bundles, and Chromium, for one test file. */
export interface BrowserHarness {
  service: ReferenceService;
  origin: StaticOrigin;
  browser: HeadlessChromium;
  /** Bundles `entries/<entry>.js` with `bundler` and runs its scenarios in a fresh page. */
  run<T>(bundler: Bundler, entry: string, options?: { fromOtherOrigin?: boolean }): Promise<RunResult<T>>;
  close(): Promise<void>;
}

export interface RunResult<T> {
  result: T;
  /** Uncaught errors in the page, outside the scenarios. */
  pageErrors: string[];
}

export async function startBrowserHarness(): Promise<BrowserHarness> {
  const root = await mkdtemp(join(tmpdir(), 'jwe-browser-pages-'));
  const origin = await serveStatic(root);
  const service = await startReferenceService([origin.url]);
  const browser = await launchChromium();
  return {
    service,
    origin,
    browser,
    async run<T>(bundler: Bundler, entry: string, options: { fromOtherOrigin?: boolean } = {}) {
      const name = `${entry}-${bundler}`;
      await bundleForBrowser(
        bundler,
        fileURLToPath(new URL(`./entries/${entry}.js`, import.meta.url)),
        join(root, name),
      );
      const base = options.fromOtherOrigin ? origin.otherOriginUrl : origin.url;
      const { url, token, kid, key, wrongKey } = service;
      const { result, page, pageErrors } = await runPageScenarios<T>(browser, `${base}/${name}/`, {
        url,
        token,
        kid,
        key,
        wrongKey,
      });
      // The page shows its results; keep a picture of it when asked (see README.md).
      const pictures = process.env.RUNTIME_TESTS_SCREENSHOTS;
      if (pictures) await page.screenshot({ path: join(pictures, `${name}.png`), fullPage: true });
      await page.close();
      return { result, pageErrors };
    },
    async close() {
      await browser.close();
      await service.close();
      await origin.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
