import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/run-cli.js';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  KID,
  type ProxyProcess,
  referenceService,
  runTool,
  startProxyProcess,
  TOKEN,
} from './support.js';

const COLLECTIONS = fileURLToPath(new URL('../../../../examples/proxy-collections/', import.meta.url));
const BIN = fileURLToPath(new URL('../../node_modules/.bin/', import.meta.url));

let service: Awaited<ReturnType<typeof referenceService>>;
let proxy: ProxyProcess;
let dir: Awaited<ReturnType<typeof tempDir>>;

/** The variables both collections read, as `--env-var name=value` flags (newman and bru spell them alike). */
function envVars(txnId: string): string[] {
  return [
    `baseUrl=${proxy.url}`,
    `kid=${KID}`,
    `clientId=${CLIENT_ID}`,
    `clientSecret=${CLIENT_SECRET}`,
    `staticToken=${TOKEN}`,
    `txnId=${txnId}`,
  ].flatMap((variable) => ['--env-var', variable]);
}

beforeAll(async () => {
  service = await referenceService();
  dir = await tempDir();
  proxy = await startProxyProcess(['--upstream', service.url, '--kid', KID]);
});

afterAll(async () => {
  expect(await proxy?.stop()).toBe(0);
  await service?.close();
  await dir?.cleanup();
});

/** What the service logged for the five calls: the bodied ones arrived sealed under our kid. */
function expectSealedCalls(log: string[], txnId: string): void {
  expect(log).toEqual([
    `POST /connect-auth/v1/account/login 200 jwe kid=${KID}`,
    `POST /connect-auth/v1/account/refresh-token 200 jwe kid=${KID}`,
    `POST /abdm/na/v1/registration/aadhaar/init 200 jwe kid=${KID}`,
    expect.stringMatching(/^POST \/v1\/file-upload 200/),
    expect.stringMatching(new RegExp(`^GET /voice/api/v3/status/${txnId} 400`)),
  ]);
}

describe('the shipped collections run unmodified through the sealing proxy', () => {
  it('newman runs the Postman collection with its environment file, and every test in it passes', async () => {
    const before = service.log.length;
    const report = dir.path('newman.json');
    const result = await runTool(`${BIN}newman`, [
      'run',
      `${COLLECTIONS}postman/transcription.postman_collection.json`,
      '-e',
      `${COLLECTIONS}postman/local.postman_environment.json`,
      ...envVars('newman-visit'),
      '--reporters',
      'cli,json',
      '--reporter-json-export',
      report,
      '--color',
      'off',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const run = (
      JSON.parse(await readFile(report, 'utf8')) as {
        run: { stats: Record<string, { total: number; failed: number }> };
      }
    ).run;
    expect(run.stats.requests).toEqual({ total: 5, pending: 0, failed: 0 });
    expect(run.stats.assertions).toEqual({ total: 8, pending: 0, failed: 0 });
    expectSealedCalls(service.log.slice(before), 'newman-visit');
  });

  it('the Bruno CLI runs the Bruno collection, and every test in it passes', async () => {
    const before = service.log.length;
    const report = dir.path('bruno.json');
    const result = await runTool(
      `${BIN}bru`,
      ['run', '--env', 'local', ...envVars('bruno-visit'), '--reporter-json', report],
      { cwd: `${COLLECTIONS}bruno` },
    );
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const [summary] = JSON.parse(await readFile(report, 'utf8')) as { summary: Record<string, number> }[];
    expect(summary?.summary).toMatchObject({
      totalRequests: 5,
      passedRequests: 5,
      failedRequests: 0,
      totalTests: 8,
      passedTests: 8,
      failedTests: 0,
    });
    expectSealedCalls(service.log.slice(before), 'bruno-visit');
  });
});
