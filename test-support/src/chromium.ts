import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, done by .ci/run); Playwright never downloads a browser here. */
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

/** What a caller may add to the persistent context (downloads, viewport…); the executable and flags stay fixed. */
export type ChromiumContextOptions = Omit<
  NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>,
  'executablePath' | 'headless' | 'args'
>;

/** Headless Chromium with a fresh profile that is removed on close. */
export async function launchChromium(options: ChromiumContextOptions = {}): Promise<HeadlessChromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install chromium`);
  }
  const profile = await mkdtemp(join(tmpdir(), 'jwe-chromium-profile-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      ...options,
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
