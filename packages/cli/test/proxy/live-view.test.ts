import { request } from 'node:http';
import { launchChromium } from '@jwe-transport/test-support/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KID, type ProxyProcess, referenceService, runTool, startProxyProcess, TOKEN } from './support.js';

const INIT = '/abdm/na/v1/registration/aadhaar/init';

let service: Awaited<ReturnType<typeof referenceService>>;
let proxy: ProxyProcess;

beforeAll(async () => {
  service = await referenceService();
  proxy = await startProxyProcess(['--upstream', service.url, '--kid', KID, '--ui', '--no-open']);
});

afterAll(async () => {
  expect(await proxy?.stop()).toBe(0);
  await service?.close();
});

function get(path: string, host: string): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: proxy.port, path, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('--ui: the live view on the proxy port', () => {
  it('is served only for the proxy’s own address, with a policy that connects only to its own origin', async () => {
    const page = await get('/__jwe-proxy/', `127.0.0.1:${proxy.port}`);
    expect(page.status).toBe(200);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect((await get('/__jwe-proxy/', `rebind.example:${proxy.port}`)).status).toBe(421);
    expect(service.log.some((line) => line.includes('__jwe-proxy'))).toBe(false);
  });

  it('lists exchanges as they happen, in the inspector’s table, and opens one with identifiers masked', async () => {
    const browser = await launchChromium();
    const requests: string[] = [];
    try {
      browser.context.on('request', (each) => requests.push(each.url()));
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${proxy.url}/__jwe-proxy/`);
      await page.getByText('Connected').waitFor();
      const result = await runTool('curl', [
        '-sS',
        '--fail-with-body',
        `${proxy.url}${INIT}`,
        '-H',
        `Authorization: Bearer ${TOKEN}`,
        '-H',
        'Content-Type: application/json',
        '-d',
        '{"aadhaar_number":"999941057058"}',
      ]);
      expect(result.code).toBe(0);
      const row = page.locator('#har-table tr[data-entry]');
      await row.first().waitFor();
      const text = (await row.first().textContent()) ?? '';
      expect(text).toContain(INIT);
      expect(text).toContain(`decrypted with kid "${KID}"`);
      await page
        .getByRole('button', { name: /Open entry/ })
        .first()
        .click();
      const detail = page.locator('.entry-detail');
      await detail.waitFor();
      const shown = (await detail.textContent()) ?? '';
      expect(shown).toContain('"••••••••7058"');
      expect(shown).not.toContain('999941057058');
      expect(shown).toContain('otp_sent');
      await page.getByLabel('Mask identifiers').uncheck();
      expect((await detail.textContent()) ?? '').toContain('"999941057058"');
      expect(errors).toEqual([]);
      expect(requests.every((url) => url.startsWith(`${proxy.url}/__jwe-proxy/`))).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
