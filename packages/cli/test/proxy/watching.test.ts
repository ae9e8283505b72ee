import { readFile } from 'node:fs/promises';
import { createJweFetch } from '@jwe-transport/client-core';
import { jwe } from '@jwe-transport/ky-plugin';
import { createServiceClient } from '@jwe-transport/service-client';
import { launchChromium } from '@jwe-transport/test-support/chromium';
import ky from 'ky';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  KEY,
  KID,
  type ProxyProcess,
  referenceService,
  startProxyProcess,
  TOKEN,
} from './support.js';

const INIT = '/abdm/na/v1/registration/aadhaar/init';
const INSPECTOR = new URL('../../../inspector/dist/inspector.html', import.meta.url).href;

let service: Awaited<ReturnType<typeof referenceService>>;
let proxy: ProxyProcess;
let dir: Awaited<ReturnType<typeof tempDir>>;
let harPath: string;

beforeAll(async () => {
  service = await referenceService();
  dir = await tempDir();
  harPath = dir.path('session.har');
  proxy = await startProxyProcess(['--watch', '--upstream', service.url, '--har', harPath, '--verbose']);
});

afterAll(async () => {
  await proxy?.stop();
  await service?.close();
  await dir?.cleanup();
});

describe('watching mode: an app that seals points at the proxy', () => {
  it('ky with the plugin: its sealed bytes pass untouched, and the line shows them opened', async () => {
    const api = ky
      .create({ prefixUrl: proxy.url, headers: { authorization: `Bearer ${TOKEN}` } })
      .extend(jwe({ key: KEY, kid: KID }));
    const answer = await api
      .post(INIT.slice(1), { json: { aadhaar_number: '999941057058' } })
      .json<{ status: string }>();
    expect(answer.status).toBe('otp_sent');
    expect(service.log.at(-1)).toBe(`POST ${INIT} 200 jwe kid=${KID}`);
    const [line] = await proxy.waitForLines(1);
    expect(line).toMatch(
      new RegExp(
        `POST ${INIT}  200  opened  kid ${KID}  sent 33 B \\(sealed \\d+ B\\)  got \\d+ B \\(sealed \\d+ B\\)`,
      ),
    );
    // --verbose shows the opened bodies, with the Aadhaar-like number masked.
    expect(proxy.stdout()).toContain('"aadhaar_number": "••••••••7058"');
    expect(proxy.stdout()).toContain('"status": "otp_sent"');
  });

  it('the service client runs the whole transcription workflow through it', async () => {
    const count = proxy.lines().length;
    const client = createServiceClient({
      baseUrl: proxy.url,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      fetch: createJweFetch({ key: KEY, kid: KID }) as typeof fetch,
    });
    const started = await client.transcribe(
      [{ name: 'visit.wav', data: new TextEncoder().encode('RIFF proxy') }],
      {
        transaction_id: 'proxy-watch-visit',
        output_format: {
          input_language: ['en-IN'],
          output_template: [{ template_id: 'transcript_template', codification_needed: false }],
        },
      },
    );
    const result = await client.waitForResult(started.transactionId, { intervalMs: 10 });
    expect(result.decoded.documents.map((document) => document.status)).toEqual(['success']);
    const lines = (await proxy.waitForLine(/GET \/voice\/api\/v3\/status\/proxy-watch-visit {2}200/)).slice(
      count,
    );
    expect(lines[0]).toMatch(new RegExp(`POST /connect-auth/v1/account/login  200  opened  kid ${KID}`));
    expect(lines.join('\n')).toMatch(
      new RegExp(`POST /voice/api/v2/transaction/init/proxy-watch-visit  201  opened  kid ${KID}`),
    );
    expect(lines.join('\n')).toMatch(
      /POST \/v1\/file-upload\?txn_id=proxy-watch-visit&action=ekascribe-v2 {2}200/,
    );
  });

  it('the HAR it writes opens in jwe-transport decrypt and in the inspector page', async () => {
    expect(await proxy.stop('SIGINT')).toBe(0);
    const total = proxy.lines().length;
    const har = JSON.parse(await readFile(harPath, 'utf8')) as {
      log: {
        entries: { request: { url: string; postData?: { text?: string; _opened?: { text?: string } } } }[];
      };
    };
    expect(har.log.entries).toHaveLength(total);
    const first = har.log.entries[0]!;
    expect(first.request.postData?.text).toContain('"ciphertext"');
    expect(JSON.parse(first.request.postData?._opened?.text ?? '{}')).toEqual({
      aadhaar_number: '999941057058',
    });
    expect(await readFile(harPath, 'utf8')).not.toContain(KEY);

    const decrypted = await runCli(['decrypt', harPath], { env: { JWE_KEY: `${KID}=${KEY}` } });
    expect(decrypted.code).toBe(0);
    expect(decrypted.stdout).toMatch(/HAR: \d+ entries, \d+ encrypted bodies, 0 failed/);
    expect(decrypted.stdout).toContain('"aadhaar_number": "999941057058"');

    const browser = await launchChromium();
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.goto(INSPECTOR);
      await page.getByLabel('Keys', { exact: true }).fill(`${KID}=${KEY}`);
      await page.getByLabel('Open file').setInputFiles(harPath);
      await page.locator('#har-table[data-complete="true"]').waitFor();
      const first = (await page.locator('#har-table tr[data-entry="1"]').textContent()) ?? '';
      expect(first).toContain(INIT);
      expect(first).toMatch(new RegExp(`decrypted with kid "${KID}"`));
    } finally {
      await browser.close();
    }
  });
});
