import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@jwe-transport/test-support/chromium';
import type { BrowserContext, Page } from 'playwright-core';

export const INSPECTOR_HTML = fileURLToPath(new URL('../dist/inspector.html', import.meta.url));
export const INSPECTOR_URL = new URL('../dist/inspector.html', import.meta.url).href;
/** Screenshots for reviewers; the folder is gitignored. */
export const SCREENSHOTS = fileURLToPath(new URL('../test-output/screenshots/', import.meta.url));

export interface Inspector {
  context: BrowserContext;
  page: Page;
  /** Every request the page made, by URL; the tests assert none goes to the network. */
  requests: string[];
  pageErrors: string[];
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile (removed on close) showing dist/inspector.html from file://. */
export async function openInspector(): Promise<Inspector> {
  if (!existsSync(INSPECTOR_HTML))
    throw new Error(`${INSPECTOR_HTML} is missing: run pnpm build (pnpm test does) first.`);
  const browser = await launchChromium({ acceptDownloads: true, viewport: { width: 1200, height: 900 } });
  const { context } = browser;
  const requests: string[] = [];
  const pageErrors: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(INSPECTOR_URL);
  return { context, page, requests, pageErrors, close: browser.close };
}

/** Requests that would leave the machine: anything but the file itself, blob: and data: URLs. */
export function networkRequests(requests: string[]): string[] {
  return requests.filter((url) => /^(?:https?|wss?|ftp):/i.test(url));
}
