// Conformance: every documented operation of the reference service, held to the service's
// published API reference (docs/wire-format.md, "What the service's clients send"). For each
// operation: the members it requires (each left out alone is refused, naming it) and the ones it
// does not (each left out alone is accepted), the documented status and body shape of its success
// and of each documented error, and each header form the service's clients use. A table of the
// checks per operation is printed at the end.
import { randomBytes } from 'node:crypto';
import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENTS,
  type Grant,
  login,
  presignedPost,
  startTestService,
  type TestService,
  type Tokens,
} from './support/service.js';

const KEY = 'svc-shared-key-1';
const STATIC_TOKEN = 'static-token-1';
let t: TestService;
beforeAll(async () => {
  t = await startTestService({ loginAttemptsPerMinute: 10_000 });
});

type Row = { operation: string; checks: number; passed: number };
const rows: Row[] = [];
afterAll(async () => {
  const width = Math.max(...rows.map((row) => row.operation.length));
  console.info(
    [
      `${'operation'.padEnd(width)}  checks  pass`,
      ...rows.map(
        (row) =>
          `${row.operation.padEnd(width)}  ${String(row.checks).padStart(6)}  ${row.passed === row.checks ? 'yes' : `NO (${row.passed})`}`,
      ),
    ].join('\n'),
  );
  await t.close();
});

/** Runs named checks for one operation, records how many held, and fails the test on any that did not. */
async function conform(
  operation: string,
  body: (check: (name: string, run: () => Promise<void>) => Promise<void>) => Promise<void>,
) {
  const failures: string[] = [];
  let checks = 0;
  await body(async (name, run) => {
    checks++;
    try {
      await run();
    } catch (error) {
      failures.push(`${name}: ${(error as Error).message}`);
    }
  });
  rows.push({ operation, checks, passed: checks - failures.length });
  expect(failures).toEqual([]);
}

const json = (headers: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.url}${path}`, { method: 'POST', headers: json(headers), body: JSON.stringify(body) });
const without = (record: Record<string, unknown>, name: string) => {
  const copy = { ...record };
  delete copy[name];
  return copy;
};
/** The documented 401: `{error: {code, msg}}` with a WWW-Authenticate challenge. */
async function expectUnauthorized(response: Response, code: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  expect(await response.json()).toEqual({ error: { code, msg: expect.any(String) } });
}
const TOKEN_SHAPE = {
  access_token: expect.any(String),
  refresh_token: expect.any(String),
  expires_in: expect.any(Number),
  refresh_expires_in: expect.any(Number),
};

/** The header forms the service's clients send with an access token. */
const headerForms = (tokens: Tokens): [string, Record<string, string>][] => [
  ['Authorization: Bearer', { authorization: `Bearer ${tokens.access_token}` }],
  ['auth', { auth: tokens.access_token }],
  [
    'Authorization: Bearer + Client-Id (own)',
    { authorization: `Bearer ${tokens.access_token}`, 'client-id': 'alpha' },
  ],
  ['auth + client-id: doc-web', { auth: tokens.access_token, 'client-id': 'doc-web' }],
];

async function grantFor(tokens: Tokens, txnId: string): Promise<Grant> {
  const response = await post(
    `/v1/file-upload?txn_id=${txnId}&action=ekascribe-v2`,
    {},
    { auth: tokens.access_token },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as Grant;
}
async function uploadedGrant(tokens: Tokens, txnId: string, names = ['a.wav']): Promise<Grant> {
  const grant = await grantFor(tokens, txnId);
  for (const name of names) expect((await presignedPost(grant, name, randomBytes(64))).status).toBe(204);
  return grant;
}
const startPath = (txnId: string) => `/voice/api/v2/transaction/init/${txnId}`;
const fullStart = (grant: Grant) => ({
  mode: 'dictation',
  transfer: 'non-vaded',
  batch_s3_url: `${grant.uploadData.url}${grant.folderPath}`,
  client_generated_files: ['a.wav'],
  model_type: 'pro',
  input_language: ['en-IN'],
  output_format_template: [{ template_id: 'transcript_template', codification_needed: false }],
  speciality: 'general_medicine',
  additional_data: { visit: 'v-1' },
});

describe('conformance with the published API reference', () => {
  it('POST /connect-auth/v1/account/login', async () => {
    await conform('POST /connect-auth/v1/account/login', async (check) => {
      const body = { client_id: 'alpha', client_secret: CLIENTS.alpha };
      await check('200 with the documented token members', async () => {
        const response = await post('/connect-auth/v1/account/login', body);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(TOKEN_SHAPE);
      });
      for (const member of ['client_id', 'client_secret'])
        await check(`requires ${member}`, async () => {
          const response = await post('/connect-auth/v1/account/login', without(body, member));
          expect(response.status).toBe(400);
        });
      await check('401 {error: {code, msg}} for wrong credentials', async () => {
        const response = await post('/connect-auth/v1/account/login', {
          ...body,
          client_secret: 'wrong-secret-1',
        });
        await expectUnauthorized(response, 'ERR_INVALID_CLIENT');
      });
    });
  });

  it('POST /connect-auth/v1/account/refresh-token', async () => {
    await conform('POST /connect-auth/v1/account/refresh-token', async (check) => {
      const path = '/connect-auth/v1/account/refresh-token';
      for (const [form, headersOf] of [
        [
          'Authorization: Bearer + Client-Id',
          (x: Tokens) => ({ authorization: `Bearer ${x.access_token}`, 'client-id': 'alpha' }),
        ],
        ['auth + Client-Id', (x: Tokens) => ({ auth: x.access_token, 'client-id': 'alpha' })],
        ['auth + client-id: doc-web', (x: Tokens) => ({ auth: x.access_token, 'client-id': 'doc-web' })],
      ] as const) {
        await check(`200 a new pair with ${form}, body {access_token, refresh_token}`, async () => {
          const tokens = await login(t.url, 'alpha');
          const response = await post(
            path,
            { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
            headersOf(tokens),
          );
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual(TOKEN_SHAPE);
        });
      }
      await check('access_token in the body is optional', async () => {
        const tokens = await login(t.url, 'alpha');
        const response = await post(
          path,
          { refresh_token: tokens.refresh_token },
          { authorization: `Bearer ${tokens.access_token}`, 'client-id': 'alpha' },
        );
        expect(response.status).toBe(200);
      });
      await check('requires refresh_token', async () => {
        const tokens = await login(t.url, 'alpha');
        const response = await post(
          path,
          { access_token: tokens.access_token },
          { authorization: `Bearer ${tokens.access_token}`, 'client-id': 'alpha' },
        );
        expect(response.status).toBe(400);
      });
      await check('requires the Client-Id header', async () => {
        const tokens = await login(t.url, 'alpha');
        const response = await post(
          path,
          { refresh_token: tokens.refresh_token },
          { authorization: `Bearer ${tokens.access_token}` },
        );
        expect(response.status).toBe(400);
      });
      await check('requires the access token header', async () => {
        const tokens = await login(t.url, 'alpha');
        const response = await post(
          path,
          { access_token: tokens.access_token, refresh_token: tokens.refresh_token },
          { 'client-id': 'alpha' },
        );
        expect(response.status).toBe(400);
      });
      await check('401 {error: {code, msg}} for an unknown refresh token', async () => {
        const tokens = await login(t.url, 'alpha');
        const response = await post(
          path,
          { refresh_token: 'unknown' },
          { authorization: `Bearer ${tokens.access_token}`, 'client-id': 'alpha' },
        );
        await expectUnauthorized(response, 'ERR_INVALID_REFRESH_TOKEN');
      });
      await check('401 for a Client-Id naming another API client', async () => {
        const tokens = await login(t.url, 'alpha');
        const response = await post(
          path,
          { refresh_token: tokens.refresh_token },
          { auth: tokens.access_token, 'client-id': 'beta' },
        );
        await expectUnauthorized(response, 'ERR_TOKEN_PAIR_MISMATCH');
      });
    });
  });

  it('POST /connect-auth/v1/account/refresh (deprecated)', async () => {
    await conform('POST /connect-auth/v1/account/refresh (deprecated)', async (check) => {
      const path = '/connect-auth/v1/account/refresh';
      await check('200 a new pair for {refresh_token}, marked Deprecation: true', async () => {
        const tokens = await login(t.url, 'beta');
        const response = await post(path, { refresh_token: tokens.refresh_token });
        expect(response.status).toBe(200);
        expect(response.headers.get('deprecation')).toBe('true');
        expect(await response.json()).toEqual(TOKEN_SHAPE);
      });
      await check('requires refresh_token', async () => {
        expect((await post(path, {})).status).toBe(400);
      });
      await check('401 {error: {code, msg}} for an unknown refresh token', async () => {
        await expectUnauthorized(await post(path, { refresh_token: 'unknown' }), 'ERR_INVALID_REFRESH_TOKEN');
      });
    });
  });

  it('POST /v1/file-upload', async () => {
    const tokens = await login(t.url, 'alpha');
    await conform('POST /v1/file-upload', async (check) => {
      for (const [form, headers] of headerForms(tokens)) {
        await check(`200 {uploadData: {url, fields}, folderPath, txn_id} with ${form}`, async () => {
          const txnId = `grant-${randomBytes(4).toString('hex')}`;
          const response = await post(`/v1/file-upload?txn_id=${txnId}&action=ekascribe-v2`, {}, headers);
          expect(response.status).toBe(200);
          const body = await response.json();
          expect(body).toEqual({
            uploadData: { url: expect.any(String), fields: expect.any(Object) },
            folderPath: `${txnId}/`,
            txn_id: txnId,
          });
          for (const field of [
            'key',
            'x-amz-algorithm',
            'x-amz-credential',
            'x-amz-date',
            'x-amz-security-token',
            'policy',
            'x-amz-signature',
          ])
            expect(body.uploadData.fields[field]).toEqual(expect.any(String));
          expect(body.uploadData.fields.key).toBe(`${txnId}/\${filename}`);
        });
      }
      await check('txn_id is optional: one is assigned and returned', async () => {
        const response = await post('/v1/file-upload?action=ekascribe-v2', {}, { auth: tokens.access_token });
        expect(response.status).toBe(200);
        const body = await response.json();
        expect(body.folderPath).toBe(`${body.txn_id}/`);
      });
      await check('action is optional', async () => {
        expect(
          (await post('/v1/file-upload?txn_id=grant-no-action', {}, { auth: tokens.access_token })).status,
        ).toBe(200);
      });
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(await post('/v1/file-upload?txn_id=grant-401', {}), 'ERR_UNAUTHORIZED');
      });
      await check('401 for a Client-Id naming another API client', async () => {
        const response = await post(
          '/v1/file-upload?txn_id=grant-foreign',
          {},
          { auth: tokens.access_token, 'client-id': 'beta' },
        );
        await expectUnauthorized(response, 'ERR_CLIENT_ID_MISMATCH');
      });
    });
  });

  it('POST <uploadData.url> (presigned storage)', async () => {
    const tokens = await login(t.url, 'alpha');
    await conform('POST <uploadData.url> (storage)', async (check) => {
      const grant = await grantFor(tokens, 'storage-conf');
      await check('204 for the granted fields and the file last', async () => {
        expect((await presignedPost(grant, 'a.wav', randomBytes(100))).status).toBe(204);
      });
      await check('204 with key set to folderPath + name', async () => {
        const response = await presignedPost(grant, 'b.wav', randomBytes(100), {
          ...grant.uploadData.fields,
          key: `${grant.folderPath}b.wav`,
        });
        expect(response.status).toBe(204);
      });
      await check('403 AccessDenied (XML) once the policy expired (about an hour)', async () => {
        const expiring = await grantFor(tokens, 'storage-expired');
        t.clock.now += 3_601_000;
        try {
          const response = await presignedPost(expiring, 'late.wav', randomBytes(10));
          expect(response.status).toBe(403);
          expect(await response.text()).toMatch(/<Code>AccessDenied<\/Code>/);
        } finally {
          t.clock.now -= 3_601_000;
        }
      });
      await check('403 AccessDenied (XML) for an altered policy', async () => {
        const response = await presignedPost(grant, 'c.wav', randomBytes(10), {
          ...grant.uploadData.fields,
          policy: `${grant.uploadData.fields.policy}x`,
        });
        expect(response.status).toBe(403);
        expect(await response.text()).toMatch(/<Code>AccessDenied<\/Code>/);
      });
    });
  });

  it('POST /voice/api/v2/transaction/init/{txn_id}', async () => {
    const tokens = await login(t.url, 'alpha');
    await conform('POST /voice/api/v2/transaction/init/{txn_id}', async (check) => {
      let counter = 0;
      const fresh = async () => {
        const txnId = `init-${counter++}-${randomBytes(3).toString('hex')}`;
        return { txnId, grant: await uploadedGrant(tokens, txnId) };
      };
      for (const [form, headers] of headerForms(tokens)) {
        await check(`201 {status, message, txn_id, b_id} with ${form}`, async () => {
          const { txnId, grant } = await fresh();
          const response = await post(startPath(txnId), fullStart(grant), headers);
          expect(response.status).toBe(201);
          expect(await response.json()).toEqual({
            status: 'success',
            message: expect.any(String),
            txn_id: txnId,
            b_id: expect.any(String),
          });
        });
      }
      for (const member of ['mode', 'transfer', 'batch_s3_url'])
        await check(`requires ${member} (422 naming it)`, async () => {
          const { txnId, grant } = await fresh();
          const response = await post(startPath(txnId), without(fullStart(grant), member), {
            auth: tokens.access_token,
          });
          expect(response.status).toBe(422);
          expect(await response.json()).toEqual({
            details: [{ loc: ['body', member], msg: 'field required', type: 'value_error.missing' }],
          });
        });
      for (const member of [
        'client_generated_files',
        'model_type',
        'input_language',
        'output_format_template',
        'speciality',
        'additional_data',
      ])
        await check(`${member} is optional`, async () => {
          const { txnId, grant } = await fresh();
          const response = await post(startPath(txnId), without(fullStart(grant), member), {
            auth: tokens.access_token,
          });
          expect(response.status).toBe(201);
        });
      await check('409 when started again', async () => {
        const { txnId, grant } = await fresh();
        expect((await post(startPath(txnId), fullStart(grant), { auth: tokens.access_token })).status).toBe(
          201,
        );
        const again = await post(startPath(txnId), fullStart(grant), { auth: tokens.access_token });
        expect(again.status).toBe(409);
        expect((await again.json()).error).toEqual({ code: 'already_started', msg: expect.any(String) });
      });
      await check('422 {details: [{loc, msg, type}]} for an invalid value', async () => {
        const { txnId, grant } = await fresh();
        const response = await post(
          startPath(txnId),
          { ...fullStart(grant), mode: 'monologue' },
          { auth: tokens.access_token },
        );
        expect(response.status).toBe(422);
        expect((await response.json()).details).toEqual([
          { loc: ['body', 'mode'], msg: expect.any(String), type: 'value_error' },
        ]);
      });
      await check('takes Odia (or) from the published language list', async () => {
        const { txnId, grant } = await fresh();
        const response = await post(
          startPath(txnId),
          { ...fullStart(grant), input_language: ['or'] },
          { auth: tokens.access_token },
        );
        expect(response.status).toBe(201);
      });
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(await post(startPath('init-401'), {}), 'ERR_UNAUTHORIZED');
      });
    });
  });

  it('GET /voice/api/v3/status/{txn_id}', async () => {
    const tokens = await login(t.url, 'alpha');
    await conform('GET /voice/api/v3/status/{txn_id}', async (check) => {
      const get = (txnId: string, headers: Record<string, string>) =>
        fetch(`${t.url}/voice/api/v3/status/${txnId}`, { headers });
      const started = async (names: Record<string, number>) => {
        const txnId = `status-${randomBytes(4).toString('hex')}`;
        const grant = await grantFor(tokens, txnId);
        for (const [name, size] of Object.entries(names))
          expect((await presignedPost(grant, name, randomBytes(size))).status).toBe(204);
        const response = await post(
          startPath(txnId),
          { ...fullStart(grant), client_generated_files: Object.keys(names) },
          { auth: tokens.access_token },
        );
        expect(response.status).toBe(201);
        return txnId;
      };
      const final = async (txnId: string, headers: Record<string, string>) => {
        let last: Response | undefined;
        await expect
          .poll(async () => {
            last = await get(txnId, headers);
            return last.status;
          })
          .not.toBe(202);
        return last!;
      };
      await check('202 {data: {output: [], additional_data}} with Retry-After while processing', async () => {
        // A service of its own that takes a minute to process, so the answer is certainly 202.
        const slow = await startTestService({ processingMs: 60_000 });
        try {
          const own = await login(slow.url, 'alpha');
          const grant = await (
            await fetch(`${slow.url}/v1/file-upload?txn_id=status-202`, {
              method: 'POST',
              headers: { auth: own.access_token },
            })
          ).json();
          expect((await presignedPost(grant, 'a.wav', randomBytes(10))).status).toBe(204);
          const startAnswer = await fetch(`${slow.url}${startPath('status-202')}`, {
            method: 'POST',
            headers: json({ auth: own.access_token }),
            body: JSON.stringify(fullStart(grant)),
          });
          expect(startAnswer.status).toBe(201);
          const response = await fetch(`${slow.url}/voice/api/v3/status/status-202`, {
            headers: { auth: own.access_token },
          });
          expect(response.status).toBe(202);
          expect(response.headers.get('retry-after')).toBe('1');
          expect(await response.json()).toEqual({ data: { output: [], additional_data: { visit: 'v-1' } } });
        } finally {
          await slow.close();
        }
      });
      for (const [form, headers] of headerForms(tokens)) {
        await check(
          `200 {data: {txn_id, created_at, completed_at, output, additional_data}} with ${form}`,
          async () => {
            const txnId = await started({ 'a.wav': 10 });
            const response = await final(txnId, headers);
            expect(response.status).toBe(200);
            const { data } = await response.json();
            expect(data).toEqual({
              txn_id: txnId,
              created_at: expect.any(String),
              completed_at: expect.any(String),
              output: expect.any(Array),
              additional_data: { visit: 'v-1' },
            });
            expect(data.output[0]).toEqual({
              template_id: 'transcript_template',
              value: expect.any(String),
              type: expect.any(String),
              name: expect.any(String),
              status: 'success',
              errors: [],
              warnings: [],
            });
          },
        );
      }
      await check('206 when some templates succeeded', async () => {
        expect(
          (await final(await started({ 'a.wav': 10, 'b.wav': 0 }), { auth: tokens.access_token })).status,
        ).toBe(206);
      });
      await check('500 when all failed', async () => {
        expect((await final(await started({ 'a.wav': 0 }), { auth: tokens.access_token })).status).toBe(500);
      });
      await check(
        '400 {error: {code: "transaction_not_found", msg}} for an unknown transaction',
        async () => {
          const response = await get('status-unknown', { auth: tokens.access_token });
          expect(response.status).toBe(400);
          expect(await response.json()).toEqual({
            error: { code: 'transaction_not_found', msg: expect.any(String) },
          });
        },
      );
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(await get('status-x', {}), 'ERR_UNAUTHORIZED');
      });
    });
  });

  it('POST /notification/v1/connect/webhook/subscriptions', async () => {
    const tokens = await login(t.url, 'beta');
    await conform('POST /notification/v1/connect/webhook/subscriptions', async (check) => {
      const path = '/notification/v1/connect/webhook/subscriptions';
      const body = {
        event_names: ['v2rx.completed'],
        endpoint: 'https://hooks.example.org/conf',
        signing_key: 'whsec-conformance',
        protocol: 'https',
      };
      for (const [form, headers] of headerForms(tokens).map(
        ([name, h]) =>
          [name, { ...h, ...(h['client-id'] === 'alpha' ? { 'client-id': 'beta' } : {}) }] as const,
      )) {
        await check(`201 {id, status: "success"} with ${form}`, async () => {
          const response = await post(path, body, headers);
          expect(response.status).toBe(201);
          expect(await response.json()).toEqual({ id: expect.any(String), status: 'success' });
        });
      }
      await check('requires endpoint', async () => {
        const response = await post(path, without(body, 'endpoint'), { auth: tokens.access_token });
        expect(response.status).toBe(400);
      });
      for (const member of ['event_names', 'signing_key', 'protocol'])
        await check(`${member} is optional`, async () => {
          expect((await post(path, without(body, member), { auth: tokens.access_token })).status).toBe(201);
        });
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(await post(path, body), 'ERR_UNAUTHORIZED');
      });
    });
  });

  it('DELETE /notification/v1/connect/webhook/subscriptions/{id}', async () => {
    const tokens = await login(t.url, 'beta');
    await conform('DELETE /notification/v1/connect/webhook/subscriptions/{id}', async (check) => {
      const path = '/notification/v1/connect/webhook/subscriptions';
      const create = async () => {
        const created = await post(
          path,
          { endpoint: 'https://hooks.example.org/del' },
          { auth: tokens.access_token },
        );
        return (await created.json()).id as string;
      };
      const remove = (id: string, headers: Record<string, string>) =>
        fetch(`${t.url}${path}/${id}`, { method: 'DELETE', headers });
      for (const [form, headers] of [
        ['Authorization: Bearer', { authorization: `Bearer ${tokens.access_token}` }],
        ['auth + client-id: doc-web', { auth: tokens.access_token, 'client-id': 'doc-web' }],
      ] as const) {
        await check(`200 {status, msg} with ${form}`, async () => {
          const response = await remove(await create(), headers);
          expect(response.status).toBe(200);
          expect(await response.json()).toEqual({ status: 'success', msg: expect.any(String) });
        });
      }
      await check('404 for an unknown or already deleted subscription', async () => {
        const id = await create();
        expect((await remove(id, { auth: tokens.access_token })).status).toBe(200);
        expect((await remove(id, { auth: tokens.access_token })).status).toBe(404);
      });
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(await remove('any', {}), 'ERR_UNAUTHORIZED');
      });
    });
  });

  it('POST /abdm/na/v1/registration/aadhaar/init (spec 4.2)', async () => {
    await conform('POST /abdm/na/v1/registration/aadhaar/init', async (check) => {
      const path = '/abdm/na/v1/registration/aadhaar/init';
      const sealed = (value: unknown) => encryptJson(value, KEY, { kid: 'k1' });
      for (const [form, headers] of [
        ['Authorization: Bearer', { authorization: `Bearer ${STATIC_TOKEN}` }],
        ['auth', { auth: STATIC_TOKEN }],
      ] as const) {
        await check(`200 sealed {txn_id, status, message} with ${form}`, async () => {
          const response = await post(path, await sealed({ aadhaar_number: '999941057058' }), {
            ...headers,
            'x-encryption': 'JWE',
          });
          expect(response.status).toBe(200);
          expect(response.headers.get('x-encryption')).toBe('JWE');
          expect(await decryptJson(await response.json(), KEY)).toEqual({
            txn_id: expect.any(String),
            status: expect.any(String),
            message: expect.any(String),
          });
        });
      }
      await check('requires aadhaar_number', async () => {
        const response = await post(path, await sealed({}), { auth: STATIC_TOKEN, 'x-encryption': 'JWE' });
        expect(response.status).toBe(400);
      });
      await check('415 for a plain body', async () => {
        expect((await post(path, { aadhaar_number: '999941057058' }, { auth: STATIC_TOKEN })).status).toBe(
          415,
        );
      });
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(
          await post(path, await sealed({ aadhaar_number: '999941057058' }), { 'x-encryption': 'JWE' }),
          'ERR_UNAUTHORIZED',
        );
      });
    });
  });

  it('POST /mr/api/v2/docs (spec 4.3)', async () => {
    await conform('POST /mr/api/v2/docs', async (check) => {
      const upload = (task: string | undefined, headers: Record<string, string>) => {
        const form = new FormData();
        form.append(
          'file',
          new Blob([new Uint8Array(randomBytes(32))], { type: 'application/pdf' }),
          'note.pdf',
        );
        return fetch(`${t.url}/mr/api/v2/docs${task === undefined ? '' : `?task=${task}`}`, {
          method: 'POST',
          headers,
          body: form,
        });
      };
      for (const [form, headers] of [
        ['Authorization: Bearer', { authorization: `Bearer ${STATIC_TOKEN}` }],
        ['auth', { auth: STATIC_TOKEN }],
      ] as const) {
        await check(`200 {document_id, …} with ${form}`, async () => {
          const response = await upload('smart', headers);
          expect(response.status).toBe(200);
          expect(await response.json()).toMatchObject({
            document_id: expect.any(String),
            task: 'smart',
            size: 32,
          });
        });
      }
      await check('task is optional (spec 4.3: only some tasks need it)', async () => {
        expect((await upload(undefined, { auth: STATIC_TOKEN })).status).toBe(200);
      });
      await check('400 for an unknown task, before the upload is read', async () => {
        expect((await upload('ocr', { auth: STATIC_TOKEN })).status).toBe(400);
      });
      await check('401 {error: {code, msg}} without a token', async () => {
        await expectUnauthorized(await upload('smart', {}), 'ERR_UNAUTHORIZED');
      });
    });
  });
});
