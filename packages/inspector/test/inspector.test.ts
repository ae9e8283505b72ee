import { createHash, createHmac } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DOC_KEY,
  DOTNET_REQUEST,
  FULL_TAG_RESPONSE,
  JWCRYPTO_REQUEST,
} from '@jwe-transport/test-support/field-notes-samples';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Inspector, networkRequests, openInspector, SCREENSHOTS } from './chromium.js';
import { HAR_KEY, makeHar, makeMisnamedHar, makeWav, OTHER_KEY } from './fixtures.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const require = createRequire(import.meta.url);

let inspector: Inspector;
let page: Page;
let tmp: string;
const wav = makeWav();

/** The text as rendered (Playwright's innerText, with line breaks between blocks), which the assertions read. */
function shown(locator: Locator): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's Locator.innerText, not the DOM property; the layout's line breaks are what a person reads.
  return locator.innerText();
}

async function screenshot(name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function inspect(envelope: string, keys: string): Promise<string> {
  await page.getByLabel('Envelope, HTTP message or HAR').fill(envelope);
  await page.getByLabel('Keys', { exact: true }).fill(keys);
  await page.getByRole('button', { name: 'Inspect' }).click();
  await page.locator('#status.ok, #status.bad').waitFor();
  return shown(page.locator('#result-body'));
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'jwe-inspector-'));
  inspector = await openInspector();
  page = inspector.page;
});

afterAll(async () => {
  await inspector?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('the inspector page in headless Chromium, from file://', () => {
  it('has the labelled controls, no spell-check or autocomplete on text areas, and the no-network policy', async () => {
    for (const label of ['Envelope, HTTP message or HAR', 'Keys']) {
      const field = page.getByLabel(label, { exact: true });
      expect(await field.getAttribute('spellcheck')).toBe('false');
      expect(await field.getAttribute('autocomplete')).toBe('off');
    }
    expect(await page.getByLabel('Open file').getAttribute('type')).toBe('file');
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toMatch(
      /default-src 'none'; connect-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; worker-src blob:; img-src blob:; media-src blob:; frame-src blob:/,
    );
    // The policy is enforced, not decorative: a fetch from the page's own context is refused.
    const fetched = await page.evaluate(() =>
      fetch('https://example.com/').then(
        () => 'sent',
        (error: Error) => `refused: ${error.name}`,
      ),
    );
    expect(fetched).toBe('refused: TypeError');
  });

  it('opens both documentation request samples with their key, showing header, kid, IV, tag and the JSON tree', async () => {
    for (const sample of [JWCRYPTO_REQUEST, DOTNET_REQUEST]) {
      const text = await inspect(sample, DOC_KEY);
      expect(text).toContain('Opened: the tag verified with the key given (fingerprint ');
      expect(text).toMatch(/IV\s+16 bytes \(22 characters\)/);
      expect(text).toMatch(/Tag\s+16 bytes \(22 characters\)/);
      expect(text).toContain('{"alg":"dir","enc":"A128CBC-HS256"} (compact encoding)');
      expect(text).toContain('aadhaar_number: "123456789012"');
      // The key left the field and is shown only as a fingerprint.
      expect(await page.getByLabel('Keys', { exact: true }).inputValue()).toBe('');
      expect(await shown(page.locator('#fingerprints'))).toMatch(/fingerprint [0-9a-f]{8}/);
      expect(await shown(page.locator('body'))).not.toContain(DOC_KEY);
    }
    await screenshot('01-documentation-sample-opened');
    await page.getByLabel('Mask identifiers').check();
    expect(await shown(page.locator('#result-body'))).toContain('aadhaar_number: "••••••••9012"');
    await screenshot('02-identifiers-masked');
    await page.getByLabel('Mask identifiers').uncheck();
  });

  it('opens an envelope inside a raw HTTP request and inside a log line', async () => {
    const http = `POST /v1/records HTTP/1.1\r\nHost: api.example.test\r\nX-Encryption: JWE\r\nContent-Type: application/json\r\n\r\n${DOTNET_REQUEST}`;
    const fromHttp = await inspect(http, DOC_KEY);
    expect(fromHttp).toContain('HTTP message: POST /v1/records HTTP/1.1');
    expect(fromHttp).toContain('aadhaar_number: "123456789012"');
    const fromLog = await inspect(
      `2026-11-26T10:00:00Z WARN upstream 400 body=${JWCRYPTO_REQUEST} took=42ms`,
      DOC_KEY,
    );
    expect(fromLog).toContain('Opened: the tag verified');
  });

  it('diagnoses the 32-byte-tag response sample instead of opening it', async () => {
    const text = await inspect(FULL_TAG_RESPONSE, DOC_KEY);
    expect(text).not.toContain('Opened:');
    expect(text).toMatch(/Did not open/);
    expect(text).toContain('The tag is 32 bytes; A128CBC-HS256 requires 16');
    expect(text).toContain('most likely the full HMAC-SHA-256 output');
    expect(text).toMatch(/protected header\s+missing/i);
    await screenshot('03-full-tag-response-diagnosed');
  });

  it('reads a HAR: each outcome in the table, the audio entry plays and downloads the same bytes, exports are clean', async () => {
    const harPath = join(tmp, 'capture.har');
    await writeFile(harPath, JSON.stringify(await makeHar(wav)));
    await page.getByLabel('Keys', { exact: true }).fill(`k1=${HAR_KEY}`);
    await page.getByLabel('Open file').setInputFiles(harPath);
    await page.locator('#har-table[data-complete="true"]').waitFor();
    const row = (entry: number) => shown(page.locator(`#har-table tr[data-entry="${entry}"]`));
    expect(await row(1)).toMatch(/decrypted with kid "k1"/);
    expect(await row(1)).not.toContain('query-secret');
    expect(await row(2)).toContain('Its kid "k-old" names none of the keys given');
    expect(await row(3)).toContain(
      'No key given authenticated it (kid "k1"): a wrong key or an envelope modified on the way',
    );
    expect(await row(4)).toMatch(/decrypted with kid "k1", file audio\/wav 4044 bytes/);
    expect(await row(5)).toMatch(/GET\s+https:\/\/api\.example\.test\/v1\/health\s+200\s+no body\s+plain/);
    await screenshot('04-har-table');

    await page.getByLabel('Filter by outcome').selectOption('failed');
    expect(await page.locator('#har-table tbody tr').count()).toBe(2);
    await page.getByLabel('Filter by outcome').selectOption('any');
    await page.getByLabel('Filter by status').fill('2xx');
    expect(await page.locator('#har-table tbody tr').count()).toBe(3);
    await page.getByLabel('Filter by URL').fill('audio');
    expect(await page.locator('#har-table tbody tr').count()).toBe(1);

    await page.getByRole('button', { name: /Open entry 4/ }).click();
    const detail = page.locator('.entry-detail');
    await detail.getByText('File payload ({"file": base64})').waitFor();
    const detailText = await shown(detail);
    expect(detailText).toContain('WAV audio (audio/wav)');
    expect(detailText).toContain(sha256(wav));
    const duration = await page.locator('.entry-detail audio').evaluate(
      (audio: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          if (audio.readyState >= 1) resolve(audio.duration);
          audio.addEventListener('loadedmetadata', () => resolve(audio.duration));
          audio.addEventListener('error', () => resolve(-1));
        }),
    );
    expect(duration).toBeCloseTo(0.25, 2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      detail.getByRole('link', { name: /Download entry-4-request\.wav/ }).click(),
    ]);
    const saved = await readFile((await download.path())!);
    expect(sha256(saved)).toBe(sha256(wav));
    await screenshot('05-har-audio-entry');

    await page.getByLabel('Filter by URL').fill('');
    await page.getByLabel('Filter by status').fill('');
    await page.getByRole('button', { name: /Open entry 3/ }).click();
    await page.locator('#entry-heading', { hasText: 'Entry 3' }).waitFor();
    const tampered = await shown(page.locator('.entry-detail'));
    expect(tampered).toContain('Did not open: no key given authenticated it.');
    expect(tampered).toContain('Ruled out');
    expect(tampered).toContain('A change on the way');

    const [redacted] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export redacted HAR' }).click(),
    ]);
    const redactedText = await readFile((await redacted.path())!, 'utf8');
    for (const secret of [
      'access-token-secret',
      'cookie-secret-value',
      'query-secret',
      'txn-good',
      '"ciphertext',
    ])
      expect(redactedText).not.toContain(secret);
    expect(JSON.parse(redactedText).log.entries).toHaveLength(5);

    await page.getByLabel('Mask identifiers').check();
    const [decrypted] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export decrypted HAR' }).click(),
    ]);
    const decryptedHar = JSON.parse(await readFile((await decrypted.path())!, 'utf8'));
    expect(JSON.parse(decryptedHar.log.entries[0].request.postData.text)).toEqual({
      txn_id: 'txn-good',
      email: '•••@example.com',
    });
    expect(JSON.parse(decryptedHar.log.entries[3].request.postData.text).file).toBe(
      Buffer.from(wav).toString('base64'),
    );
    await page.getByLabel('Mask identifiers').uncheck();

    await page.getByRole('button', { name: 'Forget keys' }).click();
    await page.locator('#status', { hasText: 'Keys forgotten' }).waitFor();
    expect(await shown(page.locator('#key-list'))).toContain('No keys in memory.');
    expect(await page.locator('#result').isHidden()).toBe(true);
  });

  it('warns in the HAR table and the entry when a kid named another key than the one that opened it', async () => {
    const harPath = join(tmp, 'rotation.har');
    await writeFile(harPath, JSON.stringify(await makeMisnamedHar()));
    await page.getByLabel('Keys', { exact: true }).fill(`k-old=${OTHER_KEY}\nk1=${HAR_KEY}`);
    await page.getByLabel('Open file').setInputFiles(harPath);
    await page.locator('#har-table[data-complete="true"]').waitFor();
    const cell = (entry: number) =>
      page.locator(`#har-table tr[data-entry="${entry}"] td[data-outcome="decrypted"]`);
    const misnamed = await shown(cell(1));
    expect(misnamed).toContain('decrypted with the key listed as "k1", not kid "k-old"');
    expect(misnamed).toContain(
      'The envelope names kid "k-old" but authenticated with the key listed as "k1": the sender sealed it with another key than the one its kid names.',
    );
    expect(await cell(1).getAttribute('class')).toBe('warn');
    expect(await shown(cell(2))).toBe('decrypted with kid "k1"');
    expect(await cell(2).getAttribute('class')).toBe('ok');
    await screenshot('06-har-kid-warning');

    await page.getByRole('button', { name: /Open entry 1/ }).click();
    await page.locator('#entry-heading', { hasText: 'Entry 1' }).waitFor();
    const detail = await shown(page.locator('.entry-detail'));
    expect(detail).toContain('decrypted with the key listed as "k1", not kid "k-old"');
    expect(detail).toContain('not the key for kid "k-old"');
    await page.getByRole('button', { name: 'Forget keys' }).click();
    await page.locator('#status', { hasText: 'Keys forgotten' }).waitFor();
  });

  it('checks a webhook signature and its clock skew', async () => {
    const body = '{"event":"v2rx.completed","data":{"transaction_id":"txn-1"}}';
    const t = Math.floor(Date.now() / 1000) - 30;
    const v1 = createHmac('sha256', 'whsec-key').update(`${t}.${body}`).digest('hex');
    await page.getByLabel('Raw webhook body').fill(body);
    await page.getByLabel('Eka-Webhook-Signature header').fill(`t=${t},v1=${v1}`);
    await page.getByLabel('Signing key').fill('whsec-key');
    await page.getByRole('button', { name: 'Check signature' }).click();
    await page.locator('#webhook-result p').first().waitFor();
    const text = await shown(page.locator('#webhook-result'));
    expect(text).toContain('Signature verifies.');
    expect(text).toMatch(/Clock skew\s+(29|30|31|32) s \(within the 180 s window\)/);
    await page.getByLabel('Signing key').fill('another-key');
    await page.getByRole('button', { name: 'Check signature' }).click();
    await page.getByText('Signature does not verify.', { exact: true }).waitFor();
  });

  it('works with the keyboard alone', async () => {
    await page.reload();
    const tabTo = async (id: string) => {
      for (let i = 0; i < 40; i++) {
        if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached #${id}`);
    };
    await tabTo('input');
    await page.keyboard.insertText(JWCRYPTO_REQUEST);
    await tabTo('keys');
    await page.keyboard.insertText(DOC_KEY);
    await tabTo('inspect');
    await page.keyboard.press('Enter');
    await page.locator('#status.ok').waitFor();
    expect(await shown(page.locator('#result-body'))).toContain('Opened: the tag verified');
    // The JSON tree's nodes fold and unfold from the keyboard.
    await tabTo('mask');
    await page.keyboard.press('Space');
    expect(await page.getByLabel('Mask identifiers').isChecked()).toBe(true);
    const summary = page.locator('.tree summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('.tree details').first().getAttribute('open')).toBeNull();
  });

  it('passes an axe-core scan with no serious or critical violations', async () => {
    await inspect(JWCRYPTO_REQUEST, DOC_KEY);
    // Evaluated through the DevTools protocol: the page's own policy would refuse an injected <script>.
    await page.evaluate(await readFile(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (
        globalThis as unknown as {
          axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; help: string }> }> };
        }
      ).axe;
      const results = await axe.run();
      return results.violations.map(({ id, impact, help }) => ({ id, impact, help }));
    });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('made no http(s) or ws(s) request and threw no error in all of the above', () => {
    expect(inspector.requests.length).toBeGreaterThan(0);
    expect(networkRequests(inspector.requests)).toEqual([]);
    expect(inspector.pageErrors).toEqual([]);
  });
});
