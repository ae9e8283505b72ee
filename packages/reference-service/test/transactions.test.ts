import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  type Grant,
  grant,
  login,
  presignedPost,
  startBody,
  startTestService,
  startTransaction,
  status,
  type TestService,
  type Tokens,
} from './support/service.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const decode = (value: string) => Buffer.from(value, 'base64').toString('utf8');
let t: TestService;
let alpha: Tokens;
let beta: Tokens;

beforeAll(async () => {
  t = await startTestService();
  alpha = await login(t.url, 'alpha');
  beta = await login(t.url, 'beta');
});
afterAll(() => t.close());

async function uploaded(txnId: string, files: Record<string, Uint8Array>, tokens = alpha): Promise<Grant> {
  const data = await grant(t.url, tokens, txnId);
  for (const [name, bytes] of Object.entries(files))
    expect((await presignedPost(data, name, bytes)).status).toBe(204);
  return data;
}

/** Polls the status endpoint until it stops answering 202. */
async function finalStatus(txnId: string, tokens = alpha): Promise<Response> {
  let last: Response | undefined;
  await expect
    .poll(async () => {
      last = await status(t.url, tokens, txnId);
      return last.status;
    })
    .not.toBe(202);
  return last!;
}

describe('start (POST /voice/api/v2/transaction/init/{txn})', () => {
  it('answers 201 with the documented members, then 409 when started again', async () => {
    const data = await uploaded('start-ok', { 'a.wav': randomBytes(1000) });
    const first = await startTransaction(t.url, alpha, 'start-ok', startBody(data, ['a.wav']));
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({
      status: 'success',
      message: expect.any(String),
      txn_id: 'start-ok',
      b_id: expect.any(String),
    });
    const again = await startTransaction(t.url, alpha, 'start-ok', startBody(data, ['a.wav']));
    expect(again.status).toBe(409);
    // A started transaction takes no new grant either.
    const regrant = await fetch(`${t.url}/v1/file-upload?txn_id=start-ok&action=ekascribe-v2`, {
      method: 'POST',
      headers: bearer(alpha),
    });
    expect(regrant.status).toBe(409);
  });

  it('answers 422 {details} naming every missing required member', async () => {
    await uploaded('start-422', { 'a.wav': randomBytes(10) });
    const response = await startTransaction(t.url, alpha, 'start-422', {});
    expect(response.status).toBe(422);
    const { details } = await response.json();
    expect(details.map((detail: { loc: string[] }) => detail.loc.at(-1)).sort()).toEqual(
      ['batch_s3_url', 'mode', 'transfer'].sort(),
    );
    for (const detail of details)
      expect(detail).toMatchObject({ msg: 'field required', type: 'value_error.missing' });
  });

  it('answers 422 for invalid values, files not uploaded, non-audio names and a wrong batch URL', async () => {
    const data = await uploaded('start-bad', { 'a.wav': randomBytes(10), 'notes.txt': randomBytes(10) });
    const cases: [Record<string, unknown>, string][] = [
      [{ mode: 'monologue' }, 'mode'],
      [{ transfer: 'teleport' }, 'transfer'],
      [{ input_language: ['xx'] }, 'input_language'],
      [{ output_format_template: [{ template_id: 'nope' }] }, 'template_id'],
      [{ client_generated_files: ['missing.wav'] }, '0'],
      [{ client_generated_files: ['notes.txt'] }, '0'],
      [{ batch_s3_url: `${data.uploadData.url}other/` }, 'batch_s3_url'],
      [{ additional_data: 'text' }, 'additional_data'],
      [{ model_type: 'max' }, 'model_type'],
    ];
    for (const [change, last] of cases) {
      const response = await startTransaction(t.url, alpha, 'start-bad', startBody(data, ['a.wav'], change));
      expect(response.status, JSON.stringify(change)).toBe(422);
      const { details } = await response.json();
      expect(details.map((detail: { loc: unknown[] }) => String(detail.loc.at(-1)))).toContain(last);
    }
    // None of these started the transaction.
    expect((await startTransaction(t.url, alpha, 'start-bad', startBody(data, ['a.wav']))).status).toBe(201);
  });

  it("starts without the optional members, with the service's defaults: pro, every uploaded audio file, a transcript", async () => {
    const files = { 'a.wav': randomBytes(10), 'b.mp3': randomBytes(20) };
    const data = await uploaded('start-defaults', { ...files, 'start-defaults.json': randomBytes(5) });
    const response = await startTransaction(t.url, alpha, 'start-defaults', {
      mode: 'dictation',
      transfer: 'non-vaded',
      batch_s3_url: `${data.uploadData.url}${data.folderPath}`,
    });
    expect(response.status).toBe(201);
    const result = await finalStatus('start-defaults');
    expect(result.status).toBe(200);
    const { output } = (await result.json()).data;
    expect(output.map((item: { template_id: string }) => item.template_id)).toEqual(['transcript_template']);
    const text = decode(output[0].value);
    expect(text).toContain('model: pro');
    expect(text).toContain('languages: not given (detected)');
    // Every audio file of the folder, and not the manifest beside them.
    for (const [name, bytes] of Object.entries(files))
      expect(text).toContain(`${name}, ${bytes.length} bytes`);
    expect(text).not.toContain('start-defaults.json');
  });

  it('answers 422 when client_generated_files is left out and no audio was uploaded', async () => {
    const data = await uploaded('start-no-audio', { 'start-no-audio.json': randomBytes(5) });
    const response = await startTransaction(t.url, alpha, 'start-no-audio', {
      mode: 'dictation',
      transfer: 'non-vaded',
      batch_s3_url: `${data.uploadData.url}${data.folderPath}`,
    });
    expect(response.status).toBe(422);
    expect((await response.json()).details).toEqual([
      {
        loc: ['body', 'client_generated_files'],
        msg: expect.stringMatching(/no audio file/),
        type: 'value_error.file_missing',
      },
    ]);
  });

  it('takes Odia and every other language of the published list', async () => {
    const data = await uploaded('start-odia', { 'a.wav': randomBytes(10) });
    const languages = ['en-IN', 'en-US', 'hi', 'gu', 'kn', 'ml', 'ta', 'te', 'bn', 'mr', 'pa', 'or'];
    const response = await startTransaction(t.url, alpha, 'start-odia', {
      ...startBody(data, ['a.wav']),
      input_language: languages,
    });
    expect(response.status).toBe(201);
    const unknown = await uploaded('start-xx', { 'a.wav': randomBytes(10) });
    const refused = await startTransaction(t.url, alpha, 'start-xx', {
      ...startBody(unknown, ['a.wav']),
      input_language: ['xx'],
    });
    expect(refused.status).toBe(422);
  });

  it('takes batch_s3_url as uploadData.url + folderPath or as s3://<bucket>/<folderPath>, and files as names or s3:// URLs', async () => {
    const files = { 'a.wav': randomBytes(100), 'b.m4a': randomBytes(200) };
    const http = await uploaded('start-forms-http', files);
    const httpStart = await startTransaction(
      t.url,
      alpha,
      'start-forms-http',
      startBody(http, ['a.wav', `${http.uploadData.url}${http.folderPath}b.m4a`]),
    );
    expect(httpStart.status).toBe(201);

    const s3 = await uploaded('start-forms-s3', files);
    const folder = `s3://ekascribe-audio/${s3.folderPath}`;
    const started = await startTransaction(
      t.url,
      alpha,
      'start-forms-s3',
      startBody(s3, [`${folder}a.wav`, 'b.m4a'], { batch_s3_url: folder }),
    );
    expect(started.status).toBe(201);
    const result = await finalStatus('start-forms-s3');
    const emr = (await result.json()).data.output.find(
      (item: { template_id: string }) => item.template_id === 'eka_emr_template',
    );
    // The URLs were read as the uploaded files they name.
    expect(JSON.parse(decode(emr.value)).files.map((file: { name: string }) => file.name)).toEqual([
      'a.wav',
      'b.m4a',
    ]);
  });

  it('still refuses URLs of other folders or buckets, and a file listed twice in two spellings', async () => {
    const data = await uploaded('start-forms-bad', { 'a.wav': randomBytes(10) });
    const own = `s3://ekascribe-audio/${data.folderPath}`;
    const cases: [Record<string, unknown>, string][] = [
      [{ batch_s3_url: 's3://ekascribe-audio/start-ok/' }, 'batch_s3_url'],
      [{ batch_s3_url: `s3://other-bucket/${data.folderPath}` }, 'batch_s3_url'],
      [{ client_generated_files: ['s3://ekascribe-audio/start-ok/a.wav'] }, '0'],
      [{ client_generated_files: [`s3://other-bucket/${data.folderPath}a.wav`] }, '0'],
      [{ client_generated_files: [`${own}sub/a.wav`] }, '0'],
      [{ client_generated_files: ['a.wav', `${own}a.wav`] }, '1'],
    ];
    for (const [change, last] of cases) {
      const response = await startTransaction(
        t.url,
        alpha,
        'start-forms-bad',
        startBody(data, ['a.wav'], change),
      );
      expect(response.status, JSON.stringify(change)).toBe(422);
      const { details } = await response.json();
      expect(details.map((detail: { loc: unknown[] }) => String(detail.loc.at(-1)))).toContain(last);
    }
  });

  it('keeps a <txn_id>.json manifest beside the audio without counting it as audio', async () => {
    const manifest = new TextEncoder().encode(
      JSON.stringify({ client_id: 'alpha', txn_id: 'start-manifest', files: ['a.wav'] }),
    );
    const data = await uploaded('start-manifest', { 'a.wav': randomBytes(64) });
    // As one SDK posts it: key set explicitly to folderPath + name, after the audio.
    const fields = { ...data.uploadData.fields, key: `${data.folderPath}start-manifest.json` };
    expect((await presignedPost(data, 'start-manifest.json', manifest, fields)).status).toBe(204);
    const named = await startTransaction(
      t.url,
      alpha,
      'start-manifest',
      startBody(data, ['a.wav', 'start-manifest.json']),
    );
    expect(named.status).toBe(422);
    expect((await named.json()).details[0]).toMatchObject({ type: 'value_error.file_type' });
    expect((await startTransaction(t.url, alpha, 'start-manifest', startBody(data, ['a.wav']))).status).toBe(
      201,
    );
    const result = await finalStatus('start-manifest');
    const emr = (await result.json()).data.output.find(
      (item: { template_id: string }) => item.template_id === 'eka_emr_template',
    );
    expect(JSON.parse(decode(emr.value)).files.map((file: { name: string }) => file.name)).toEqual(['a.wav']);
    const transaction = t.service.workflow.transactions.get('start-manifest')!;
    expect([...transaction.files.keys()]).toEqual(['a.wav']);
    expect(transaction.objects.get('start-manifest.json')).toMatchObject({
      size: manifest.length,
      sha256: sha256(manifest),
    });
  });

  it('answers 400 transaction_not_found for a transaction that was never granted', async () => {
    const response = await startTransaction(t.url, alpha, 'never-granted', { mode: 'dictation' });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe('transaction_not_found');
  });
});

describe('status (GET /voice/api/v3/status/{txn})', () => {
  it('answers 202 with empty output while processing, then 200 with base64 documents and additional_data', async () => {
    const slow = await startTestService({ processingMs: 60_000 });
    try {
      const tokens = await login(slow.url, 'alpha');
      const data = await grant(slow.url, tokens, 'slow');
      expect((await presignedPost(data, 'a.wav', randomBytes(10))).status).toBe(204);
      const body = startBody(data, ['a.wav'], { additional_data: { visit: 7 } });
      expect((await startTransaction(slow.url, tokens, 'slow', body)).status).toBe(201);
      const processing = await status(slow.url, tokens, 'slow');
      expect(processing.status).toBe(202);
      expect(await processing.json()).toEqual({ data: { output: [], additional_data: { visit: 7 } } });
      slow.service.workflow.transactions.complete('slow');
      expect((await status(slow.url, tokens, 'slow')).status).toBe(200);
    } finally {
      await slow.close();
    }
  });

  it('answers 200 when every template succeeded; documents describe the stored files', async () => {
    const files = { 'first.wav': randomBytes(4000), 'second.mp3': randomBytes(2000) };
    const data = await uploaded('status-200', files);
    const body = startBody(data, Object.keys(files), {
      additional_data: { doctor: 'D-1' },
      speciality: 'cardiology',
      model_type: 'lite',
    });
    expect((await startTransaction(t.url, alpha, 'status-200', body)).status).toBe(201);
    const response = await finalStatus('status-200');
    expect(response.status).toBe(200);
    const { data: result } = await response.json();
    expect(result.additional_data).toEqual({ doctor: 'D-1' });
    expect(result.output.map((item: { template_id: string }) => item.template_id)).toEqual([
      'clinical_notes_template',
      'eka_emr_template',
      'transcript_template',
    ]);
    for (const item of result.output)
      expect(item).toMatchObject({ status: 'success', errors: [], warnings: [] });
    const emr = JSON.parse(decode(result.output[1].value));
    expect(emr).toMatchObject({
      session_id: 'status-200',
      mode: 'dictation',
      model_type: 'lite',
      speciality: 'cardiology',
    });
    expect(emr.files).toEqual([
      { name: 'first.wav', size: 4000, sha256: sha256(files['first.wav']), content_type: 'audio/wav' },
      { name: 'second.mp3', size: 2000, sha256: sha256(files['second.mp3']), content_type: 'audio/mpeg' },
    ]);
    expect(result.output[0].type).toBe('markdown');
    expect(decode(result.output[0].value)).toContain('# Clinical notes');
  });

  it('answers 206 when some templates only partly succeeded, and 500 when all failed', async () => {
    const partial = await uploaded('status-206', {
      'a.wav': randomBytes(100),
      'empty.wav': new Uint8Array(),
    });
    await startTransaction(t.url, alpha, 'status-206', startBody(partial, ['a.wav', 'empty.wav']));
    const response = await finalStatus('status-206');
    expect(response.status).toBe(206);
    const { data } = await response.json();
    expect(data.output[0]).toMatchObject({
      status: 'partial_success',
      warnings: [{ code: 'audio.empty', message: expect.stringContaining('empty.wav') }],
    });

    const failed = await uploaded('status-500', { 'silent.wav': new Uint8Array() });
    await startTransaction(t.url, alpha, 'status-500', startBody(failed, ['silent.wav']));
    const none = await finalStatus('status-500');
    expect(none.status).toBe(500);
    expect((await none.json()).data.output[0]).toMatchObject({
      status: 'failure',
      errors: [{ code: 'audio.none' }],
    });
  });

  it('answers 400 transaction_not_found for unknown and not yet started transactions', async () => {
    for (const id of ['nothing-here', 'only-granted']) {
      if (id === 'only-granted') await grant(t.url, alpha, id);
      const response = await status(t.url, alpha, id);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({
        code: 'transaction_not_found',
        msg: expect.any(String),
      });
    }
  });
});

describe('ownership', () => {
  it("another client's token gets 404 for the transaction's grant, start and status", async () => {
    const data = await uploaded('owned', { 'a.wav': randomBytes(100) });
    const regrant = await fetch(`${t.url}/v1/file-upload?txn_id=owned&action=ekascribe-v2`, {
      method: 'POST',
      headers: bearer(beta),
    });
    expect(regrant.status).toBe(404);
    expect((await startTransaction(t.url, beta, 'owned', startBody(data, ['a.wav']))).status).toBe(404);
    expect((await startTransaction(t.url, alpha, 'owned', startBody(data, ['a.wav']))).status).toBe(201);
    expect((await finalStatus('owned')).status).toBe(200);
    const foreign = await status(t.url, beta, 'owned');
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(await foreign.json())).not.toContain('output');
  });
});
