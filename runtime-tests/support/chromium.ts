import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`); Playwright never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface HeadlessChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Chromium with a fresh profile that is removed on close. */
export async function launchChromium(): Promise<HeadlessChromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install chromium`);
  }
  const profile = await mkdtemp(join(tmpdir(), 'jwe-chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Opens `pageUrl`, waits for its bundle to publish `window.jweScenarios`, runs it with `config`
 * and answers what it returned. Errors the page throws outside the scenarios fail the run.
 */
export async function runPageScenarios<T>(
  browser: HeadlessChromium,
  pageUrl: string,
  config: unknown,
): Promise<{ result: T; page: Page; pageErrors: string[] }> {
  const page = await browser.context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(pageUrl);
  try {
    await page.waitForFunction(() => 'jweScenarios' in globalThis, undefined, { timeout: 15_000 });
  } catch (error) {
    throw new Error(`The page ${pageUrl} never published its scenarios: ${pageErrors.join('; ') || error}`);
  }
  const result = await page.evaluate(
    (input) =>
      (globalThis as unknown as { jweScenarios: { run(c: unknown): Promise<unknown> } }).jweScenarios.run(
        input,
      ),
    config,
  );
  return { result: result as T, page, pageErrors };
}
