// The service's other real clients against the reference service, step by step: its JavaScript
// SDK (requests re-created from its published source, see peers/ekascribe-ts-sdk.ts) and its
// Python automation example (peers/non_vaded_flow.py, run by /usr/bin/python3 with `requests`).
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getStatus,
  initTransaction,
  requestGrant,
  type SdkGrant,
  type SdkSettings,
  uploadFile,
} from './peers/ekascribe-ts-sdk.js';
import { CLIENTS, login, startTestService, type TestService } from './support/service.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t.close());

/** One row of the step table printed at the end of each flow (for the issue's closing note). */
type Step = { step: string; status: number };
const table = (title: string, steps: Step[]) =>
  console.info(`${title}\n${steps.map((row) => `  ${row.status}  ${row.step}`).join('\n')}`);

describe('the JavaScript SDK (ekascribe-ts-sdk 2.1.x requests)', () => {
  it('gets through grant, both uploads, start and status with auth: and client-id: doc-web', async () => {
    const tokens = await login(t.url, 'alpha');
    // No clientId given to the SDK: it sends `client-id: doc-web`.
    const sdk: SdkSettings = { host: t.url, accessToken: tokens.access_token };
    const steps: Step[] = [];
    const txnId = `sdk-${randomBytes(6).toString('hex')}`;

    const grantAnswer = await requestGrant(sdk, txnId);
    steps.push({
      step: 'POST /v1/file-upload (auth:, client-id: doc-web, body {})',
      status: grantAnswer.status,
    });
    expect(grantAnswer.status).toBe(200);
    const grant = (await grantAnswer.json()) as SdkGrant;
    expect(grant.txn_id).toBe(txnId);

    const audio = { 'audio_1.wav': randomBytes(3000), 'audio_2.mp3': randomBytes(2000) };
    for (const [name, bytes] of Object.entries(audio)) {
      const stored = await uploadFile(grant, name, new Blob([new Uint8Array(bytes)]));
      steps.push({
        step: `POST storage ${name} (key = folderPath + name, part named "blob")`,
        status: stored.status,
      });
      expect(stored.status).toBe(204);
    }

    const started = await initTransaction(sdk, txnId, grant.uploadData.url + grant.folderPath, {
      mode: 'consultation',
      transfer: 'non-vaded',
      input_language: ['en-IN', 'or'],
      output_format_template: [
        { template_id: 'eka_emr_template', language_output: 'en-IN', codification_needed: false },
      ],
      model_type: 'lite',
      model_training_consent: false,
      auto_download: false,
      system_info: { platform: 'web', language: 'en-IN' },
      patient_details: { username: 'test', age: 40 },
      version: '2.1.51',
      flavour: 'web',
      audio_file_names: Object.keys(audio),
    });
    steps.push({
      step: 'POST /voice/api/v2/transaction/init (SDK body, flavour header)',
      status: started.status,
    });
    expect(started.status).toBe(201);
    expect(await started.json()).toMatchObject({ status: 'success', txn_id: txnId });

    let result: Response | undefined;
    await expect
      .poll(async () => {
        result = await getStatus(sdk, txnId);
        return result.status;
      })
      .toBe(200);
    steps.push({ step: 'GET /voice/api/v3/status (Content-Type on a GET)', status: result!.status });
    const emr = JSON.parse(decode((await result!.json()).data.output[0].value));
    expect(emr).toMatchObject({ mode: 'consultation', model_type: 'lite', languages: ['en-IN', 'or'] });
    expect(emr.files).toEqual(
      Object.entries(audio).map(([name, bytes]) => expect.objectContaining({ name, sha256: sha256(bytes) })),
    );
    table('JavaScript SDK (ekascribe-ts-sdk 2.1.x requests):', steps);
  });

  it('is refused with the documented 401 body when its token is wrong, and with a Client-Id of another API client', async () => {
    const wrong = await requestGrant({ host: t.url, accessToken: 'not-a-token' }, 'sdk-wrong');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ error: { code: 'ERR_UNAUTHORIZED', msg: expect.any(String) } });
    const tokens = await login(t.url, 'alpha');
    const foreign = await requestGrant(
      { host: t.url, accessToken: tokens.access_token, clientId: 'beta' },
      'sdk-f',
    );
    expect(foreign.status).toBe(401);
    expect((await foreign.json()).error.code).toBe('ERR_CLIENT_ID_MISMATCH');
  });
});

describe('the automation example (non_vaded_flow.py, Python requests)', () => {
  it('gets through login, a grant without txn_id, uploads, a start without model_type or files, and status', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'non-vaded-flow-'));
    try {
      const files = { 'visit-part1.wav': randomBytes(4000), 'visit-part2.m4a': randomBytes(1500) };
      const paths: string[] = [];
      for (const [name, bytes] of Object.entries(files)) {
        paths.push(join(dir, name));
        await writeFile(join(dir, name), bytes);
      }
      const script = fileURLToPath(new URL('./peers/non_vaded_flow.py', import.meta.url));
      const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(
          '/usr/bin/python3',
          ['-I', script],
          {
            env: {
              BASE_URL: t.url,
              CLIENT_ID: 'beta',
              CLIENT_SECRET: CLIENTS.beta,
              AUDIO_FILES: paths.join(delimiter),
            },
          },
          (error, out) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
        );
      });
      const lines = stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Step & Record<string, unknown>);
      table(
        'Automation example (non_vaded_flow.py):',
        lines.filter((line) => line.status !== undefined),
      );
      expect(code).toBe(0);
      expect(lines.map((line) => [line.step, line.status])).toEqual([
        ['login', 200],
        ['grant without txn_id', 200],
        ['upload visit-part1.wav', 204],
        ['upload visit-part2.m4a', 204],
        ['start without model_type and client_generated_files', 201],
        ['status', 200],
        ['document', undefined],
      ]);
      expect(lines[4]!.txn_id).toMatch(/^txn-/);
      expect(lines[5]).toMatchObject({
        templates: ['clinical_notes_template'],
        additional_data: { source: 'non_vaded_flow' },
      });
      const notes = String(lines[6]!.text);
      expect(notes).toContain('model: pro');
      for (const [name, bytes] of Object.entries(files))
        expect(notes).toContain(`| ${name} | ${bytes.length} | `);
      for (const bytes of Object.values(files)) expect(notes).toContain(sha256(bytes));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
