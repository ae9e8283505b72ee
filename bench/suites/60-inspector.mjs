// The browser inspector (packages/inspector/dist/inspector.html) in Debian's headless Chromium:
// its size gzipped; a 50 MB HAR with 500 encrypted entries from choosing the file to the table
// rendered with every outcome, next to the CLI's `decrypt FILE --json` on the same file timed as
// a whole process; and the longest main-thread task while the page reads that file.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as codec from '../../packages/codec/dist/index.node.js';
import { formatRatio, formatSeconds, median, report } from './lib.mjs';

const require = createRequire(new URL('../../packages/inspector/package.json', import.meta.url));
const { chromium } = require('playwright-core');
const HTML = fileURLToPath(new URL('../../packages/inspector/dist/inspector.html', import.meta.url));
const BIN = fileURLToPath(new URL('../../packages/cli/dist/bin.js', import.meta.url));
const KEY = 'k3y-0f-16-bytes!';
const ENTRIES = 500;
const RUNS = Number(process.env.BENCH_INSPECTOR_RUNS ?? 3);

async function makeHar(path) {
  const entries = [];
  for (let i = 0; i < ENTRIES; i++) {
    // 56 KiB uploads: each envelope is about 100 KB, 500 of them about 50 MB.
    const envelope = await codec.encryptFile(randomBytes(56 * 1024), KEY, { kid: 'k1' });
    const response = await codec.encryptJson({ id: `doc-${i}`, status: 'success' }, KEY, { kid: 'k1' });
    const json = (text) => ({ size: text.length, mimeType: 'application/json', text });
    entries.push({
      startedDateTime: '2026-11-26T10:00:00.000Z',
      time: 40,
      request: {
        method: 'POST',
        url: `https://api.example.test/v1/upload/${i}?txn=${i}`,
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'X-Encryption', value: 'JWE' }],
        queryString: [],
        postData: { mimeType: 'application/json', text: JSON.stringify(envelope) },
        headersSize: -1,
        bodySize: -1,
      },
      response: {
        status: 201,
        statusText: 'Created',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'X-Encryption', value: 'JWE' }],
        content: json(JSON.stringify(response)),
        redirectURL: '',
        headersSize: -1,
        bodySize: -1,
      },
      cache: {},
      timings: { send: 1, wait: 38, receive: 1 },
    });
  }
  const text = JSON.stringify({ log: { version: '1.2', creator: { name: 'bench', version: '1' }, entries } });
  await writeFile(path, text);
  return text.length;
}

/** Whole-process wall seconds of the CLI, as a user runs it. */
function cliSeconds(harPath) {
  const start = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'decrypt', harPath, '--json'], {
    env: { PATH: process.env.PATH ?? '', JWE_KEY: `k1=${KEY}` },
    maxBuffer: 256 * 2 ** 20,
  });
  const seconds = (performance.now() - start) / 1000;
  if (run.status !== 0) throw new Error(`the CLI failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout.toString('utf8'));
  if (result.bodies.length !== 2 * ENTRIES || !result.ok)
    throw new Error('the CLI did not decrypt every body');
  return seconds;
}

async function pageRun(context, harPath) {
  const page = await context.newPage();
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.addInitScript(() => {
    globalThis.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) globalThis.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(new URL(`file://${HTML}`).href);
  await page.getByLabel('Keys', { exact: true }).fill(`k1=${KEY}`);
  await page.getByRole('button', { name: 'Use keys' }).click();
  await page.evaluate(() => {
    globalThis.__longTasks.length = 0;
  });
  const start = performance.now();
  await page.getByLabel('Open file').setInputFiles(harPath);
  await page.locator('#har-table[data-complete="true"]').waitFor({ timeout: 300_000 });
  const seconds = (performance.now() - start) / 1000;
  const rows = await page.locator('#har-table tbody tr').count();
  const decrypted = await page.locator('#har-table td[data-outcome="decrypted"]').count();
  if (rows !== ENTRIES || decrypted !== 2 * ENTRIES)
    throw new Error(`the page showed ${rows} rows and ${decrypted} decrypted bodies`);
  const longest = await page.evaluate(() => Math.max(0, ...globalThis.__longTasks));
  if (requests.some((url) => /^(?:https?|wss?):/i.test(url)))
    throw new Error('the page made a network request');
  await page.close();
  return { seconds, longest };
}

const dir = await mkdtemp(join(tmpdir(), 'jwe-bench-inspector-'));
const profile = await mkdtemp(join(tmpdir(), 'jwe-bench-chromium-'));
try {
  const gzipped = gzipSync(await readFile(HTML)).length;
  const harPath = join(dir, 'capture.har');
  const harBytes = await makeHar(harPath);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = [];
  const cli = [];
  let longest = 0;
  try {
    // Interleaved, so both see the same machine load.
    for (let i = 0; i < RUNS; i++) {
      const run = await pageRun(context, harPath);
      page.push(run.seconds);
      longest = Math.max(longest, run.longest);
      cli.push(cliSeconds(harPath));
    }
  } finally {
    await context.close();
  }
  const pageSeconds = median(page);
  const cliSecondsMedian = median(cli);
  const ratio = pageSeconds / cliSecondsMedian;
  report('Browser inspector (headless Chromium)', [
    {
      case: 'inspector.html, gzipped',
      ours: `${(gzipped / 1024).toFixed(1)} KiB`,
      target: '< 150 KB',
      met: gzipped < 150_000,
      notes: 'one self-contained file: script, style and worker inline',
    },
    {
      case: `${(harBytes / 1e6).toFixed(0)} MB HAR, ${ENTRIES} entries (${2 * ENTRIES} encrypted bodies): file chosen to table rendered`,
      ours: formatSeconds(pageSeconds),
      reference: formatSeconds(cliSecondsMedian),
      ratio: formatRatio(ratio),
      target: 'page / CLI <= 1.5x',
      met: ratio <= 1.5,
      notes: `reference: \`jwe-transport decrypt FILE --json\` timed as a whole process; ratio here is page time / CLI time (lower is better); medians of ${RUNS} interleaved runs`,
    },
    {
      case: 'longest main-thread task while reading that HAR',
      ours: `${Math.round(longest)} ms`,
      target: '<= 200 ms',
      met: longest <= 200,
      notes: "PerformanceObserver 'longtask' in the page, worst over all runs (0: no task over 50 ms)",
    },
  ]);
} finally {
  await rm(dir, { recursive: true, force: true });
  await rm(profile, { recursive: true, force: true });
}
