import { createHash, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { KID, type ProxyProcess, referenceService, runTool, startProxyProcess, TOKEN } from './support.js';

let service: Awaited<ReturnType<typeof referenceService>>;
let proxy: ProxyProcess;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  service = await referenceService();
  dir = await tempDir();
  proxy = await startProxyProcess(['--upstream', service.url, '--kid', KID]);
});

afterAll(async () => {
  const code = await proxy?.stop('SIGTERM');
  expect(code).toBe(0);
  await service?.close();
  await dir?.cleanup();
});

const INIT = '/abdm/na/v1/registration/aadhaar/init';
const auth = `Authorization: Bearer ${TOKEN}`;

describe('sealing mode with curl and HTTPie, unmodified', () => {
  it('curl: a plain JSON body reaches the service sealed, and its sealed answer comes back opened', async () => {
    const before = service.log.length;
    const result = await runTool('curl', [
      '-sS',
      '-i',
      `${proxy.url}${INIT}`,
      '-H',
      auth,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"aadhaar_number":"999941057058"}',
    ]);
    expect(result.code).toBe(0);
    const [head, body] = result.stdout.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(new RegExp(`^x-jwe-decrypted: ${KID}$`, 'mi'));
    expect(JSON.parse(body!)).toMatchObject({ status: 'otp_sent' });
    // The service took it as an envelope under our kid (it refuses plain bodies on this route).
    expect(service.log.slice(before)).toEqual([`POST ${INIT} 200 jwe kid=${KID}`]);
    const lines = await proxy.waitForLines(1);
    expect(lines.at(-1)).toMatch(
      new RegExp(`POST ${INIT}  200  opened  kid ${KID}  sent 33 B \\(sealed \\d+ B\\)`),
    );
  });

  it('curl -F: a multipart upload is sealed as {"file": …}, and the service stores exactly those bytes', async () => {
    const bytes = randomBytes(300_000);
    const path = dir.path('scan.bin');
    await writeFile(path, bytes);
    const count = proxy.lines().length;
    const result = await runTool('curl', [
      '-sS',
      '--fail-with-body',
      '-F',
      `file=@${path};type=application/octet-stream`,
      '-H',
      auth,
      `${proxy.url}/mr/api/v2/docs?task=smart`,
    ]);
    expect(result.code).toBe(0);
    const record = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({ encrypted: true, size: bytes.length, task: 'smart' });
    expect(record.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    const lines = await proxy.waitForLines(count + 1);
    expect(lines.at(-1)).toMatch(
      /POST \/mr\/api\/v2\/docs\?task=smart {2}200 {2}opened {2}kid proxy-kid {2}sent 293\.0 KiB/,
    );
  });

  it('curl --fail-with-body: a refusal the service seals is opened, and curl fails with its plaintext', async () => {
    const count = proxy.lines().length;
    const result = await runTool('curl', [
      '-sS',
      '--fail-with-body',
      `${proxy.url}${INIT}`,
      '-H',
      auth,
      '-H',
      'Content-Type: application/json',
      '-d',
      '{"aadhaar_number":"12"}',
    ]);
    expect(result.code).toBe(22);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ERR_VALIDATION' } });
    const lines = await proxy.waitForLines(count + 1);
    expect(lines.at(-1)).toMatch(/ 400 {2}refused ERR_VALIDATION {2}kid proxy-kid/);
  });

  it('curl: a body the service never takes sealed (a URL-encoded form) is refused before it leaves', async () => {
    const before = service.log.length;
    const result = await runTool('curl', [
      '-sS',
      '--fail-with-body',
      `${proxy.url}${INIT}`,
      '-H',
      auth,
      '-d',
      'aadhaar_number=999941057058',
    ]);
    expect(result.code).toBe(22);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: { code: 'ERR_JWE_BODY_UNSUPPORTED' } });
    expect(service.log.length).toBe(before);
  });

  it('HTTPie: JSON items are sealed and the opened answer is printed', async () => {
    const before = service.log.length;
    const result = await runTool('http', [
      '--ignore-stdin',
      '--print=hb',
      'POST',
      `${proxy.url}${INIT}`,
      `Authorization:Bearer ${TOKEN}`,
      'aadhaar_number=999941057058',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`x-jwe-decrypted: ${KID}`, 'i'));
    expect(JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))).toMatchObject({ status: 'otp_sent' });
    expect(service.log.slice(before)).toEqual([`POST ${INIT} 200 jwe kid=${KID}`]);
  });

  it('HTTPie --form with a file: sealed as an upload', async () => {
    const path = dir.path('note.txt');
    await writeFile(path, 'a note for the record\n');
    const result = await runTool('http', [
      '--ignore-stdin',
      '--body',
      '--form',
      'POST',
      `${proxy.url}/mr/api/v2/docs?task=pii`,
      `Authorization:Bearer ${TOKEN}`,
      `file@${path}`,
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ encrypted: true, size: 22, task: 'pii' });
  });
});

describe('jwe-transport proxy --help and usage', () => {
  it('explains both modes, and refuses to start without an upstream', async () => {
    const help = await runCli(['proxy', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('sealing (default)');
    expect(help.stdout).toContain('watching (--watch)');
    const missing = await runCli(['proxy'], { env: { JWE_KEY: 'k9PzR2vQ7wXy4LmN' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--upstream URL');
  });
});
