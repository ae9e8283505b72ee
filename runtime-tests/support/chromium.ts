import type { HeadlessChromium } from '@jwe-transport/test-support/chromium';
import type { Page } from 'playwright-core';

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
