import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HeadlessChromium, launchChromium } from '@jwe-transport/test-support/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../support/bundle.js';
import { runPageScenarios } from '../support/chromium.js';
import { type StaticOrigin, serveStatic } from '../support/static-origin.js';

/*
 * @jwe-transport/testing in a real browser: the page starts MSW's service worker (setupWorker)
 * with createJweHttp handlers, then ky and axios (XHR and fetch adapters), each with its jwe
 * adapter, call the page's own API. The worker script is MSW's own, served at the origin's root
 * as an application serves it; 127.0.0.1 is a secure context, so service workers are allowed.
 */

const KID = 'browser-kit';
const KEY = 'sixteen-chars-ky';
const WRONG_KEY = 'another-16-chars';
const CLIENTS = ['ky', 'axios-xhr', 'axios-fetch'] as const;

interface Outcome<T> {
  ok: boolean;
  value?: T;
  error?: { name?: string; code?: string; status?: number; message: string };
}
type Answer = Outcome<{ status: number; body: unknown }>;
interface PageRun {
  page: { origin: string; hasProcess: boolean; hasBuffer: boolean };
  controlled: boolean;
  sample: { size: number; sha256: string };
  clients: Record<(typeof CLIENTS)[number], Record<'json' | 'sealedError' | 'plainAnswer' | 'file', Answer>>;
  wrongKeyCalls: Record<string, Answer>;
  seen: { route: string; body?: unknown; facts: unknown; encryption?: string | null; type?: string }[];
  wire: { path: string; encryption: string | null; carriesAadhaar: boolean; isEnvelope: boolean }[];
}

let root: string;
let origin: StaticOrigin;
let browser: HeadlessChromium;
let run: PageRun;
let pageErrors: string[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'jwe-msw-pages-'));
  // MSW's worker script, from the installed msw, at the root so that its scope covers every page.
  const require = createRequire(import.meta.url);
  await copyFile(require.resolve('msw/mockServiceWorker.js'), join(root, 'mockServiceWorker.js'));
  await bundleForBrowser(
    'esbuild',
    fileURLToPath(new URL('./entries/msw-clients.js', import.meta.url)),
    join(root, 'msw-clients'),
  );
  origin = await serveStatic(root);
  browser = await launchChromium();
  const page = await runPageScenarios<PageRun>(browser, `${origin.url}/msw-clients/`, {
    kid: KID,
    key: KEY,
    wrongKey: WRONG_KEY,
  });
  run = page.result;
  pageErrors = page.pageErrors;
  await page.page.close();
});

afterAll(async () => {
  await browser?.close();
  await origin?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('createJweHttp under setupWorker in Chromium', () => {
  it('runs in a page controlled by MSW’s service worker, with no Node globals', () => {
    expect(pageErrors).toEqual([]);
    expect(run.page).toEqual({ origin: origin.url, hasProcess: false, hasBuffer: false });
    expect(run.controlled).toBe(true);
  });

  it.each(CLIENTS)(
    '%s: sealed JSON opened for the resolver, the sealed answer opened for the caller',
    (client) => {
      expect(run.clients[client].json).toEqual({
        ok: true,
        value: { status: 201, body: { id: 'p-1', aadhaar_number: '999941057058' } },
      });
    },
  );

  it.each(CLIENTS)('%s: a sealed 422 error answer is opened', (client) => {
    expect(run.clients[client].sealedError).toEqual({
      ok: true,
      value: { status: 422, body: { error: { code: 'ERR_AADHAAR_INVALID' } } },
    });
  });

  it.each(CLIENTS)('%s: a plain 2xx answer to a sealed request fails closed', (client) => {
    expect(run.clients[client].plainAnswer).toMatchObject({
      ok: false,
      error: { code: 'ERR_JWE_RESPONSE_NOT_ENCRYPTED' },
    });
  });

  it.each(CLIENTS)('%s: a FormData upload reaches the resolver as the file’s bytes', (client) => {
    expect(run.clients[client].file).toEqual({ ok: true, value: { status: 200, body: run.sample } });
  });

  it.each(['ky', 'axios-xhr'])('%s under a wrong key: 400 ERR_JWE_DECRYPTION_FAILED', (client) => {
    expect(run.wrongKeyCalls[client]).toMatchObject({
      ok: true,
      value: {
        status: 400,
        body: { error: { type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' } },
      },
    });
  });

  it('resolvers saw plaintext and files; only sealed requests opened, never under a wrong key', () => {
    const patients = run.seen.filter((entry) => entry.route === 'patients');
    const docs = run.seen.filter((entry) => entry.route === 'docs');
    expect(patients).toHaveLength(2 * CLIENTS.length);
    expect(docs).toHaveLength(CLIENTS.length);
    for (const entry of patients) {
      expect(entry.facts).toEqual({ encrypted: true, kid: KID, file: false });
      expect(entry.encryption).toBeNull();
    }
    for (const entry of docs) {
      expect(entry).toEqual({
        route: 'docs',
        facts: { encrypted: true, kid: KID, file: true },
        type: 'application/octet-stream',
      });
    }
  });

  it('sent every request to the API sealed: no plaintext on the page’s wire', () => {
    const api = run.wire.filter((entry) => entry.path.startsWith('/api/'));
    expect(api.length).toBeGreaterThanOrEqual(4 * CLIENTS.length);
    for (const entry of api) {
      expect(entry).toMatchObject({ encryption: 'JWE', carriesAadhaar: false, isEnvelope: true });
    }
  });
});
