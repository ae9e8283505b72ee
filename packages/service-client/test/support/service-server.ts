// A small test service on the documented wire (field notes: Auth, Transcription wire), over real
// HTTP on 127.0.0.1: login and refresh with rotating refresh tokens, the upload grant, the
// presigned-POST storage (storage-server.ts), start, status and subscriptions.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleStoragePost, type StorageState, signPolicy } from './storage-server.js';

export const CLIENT_ID = 'wire-client';
export const CLIENT_SECRET = 'wire-client-secret-0123';

export interface Transaction {
  body: Record<string, unknown>;
  /** Polls answered 202 before the result. */
  pending: number;
  /** What the status call answers once done. */
  outcome: { status: 200 | 206 | 500; output: unknown };
}

export interface TestService {
  url: string;
  storage: StorageState;
  transactions: Map<string, Transaction>;
  counts: { logins: number; refreshes: number; grants: number; polls: number };
  /** Every request's method, path, Authorization and Client-Id headers. */
  log: { method: string; path: string; authorization: string | undefined; clientId: string | undefined }[];
  /** Status polls answered 202 before the result (default 0). */
  pollsBeforeDone: number;
  /** The result a transaction gets once done; default: every requested template succeeds. */
  outcomeFor?: (transaction: Record<string, unknown>) => Transaction['outcome'];
  subscriptions: Record<string, unknown>[];
  /** Makes every access token issued so far invalid (the next calls get 401). */
  revokeAccessTokens(): void;
  close(): Promise<void>;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function defaultOutcome(body: Record<string, unknown>): Transaction['outcome'] {
  const templates = body.output_format_template as { template_id: string }[];
  const output = templates.map(({ template_id }) => ({
    template_id,
    name: template_id.replace(/_/g, ' '),
    type: template_id === 'eka_emr_template' ? 'json' : 'markdown',
    status: 'success',
    value: b64(
      template_id === 'eka_emr_template'
        ? JSON.stringify({ files: body.client_generated_files, language: body.input_language })
        : `# ${template_id}\nmode ${String(body.mode)}`,
    ),
    errors: [],
    warnings: [],
  }));
  return { status: 200, output };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

const REQUIRED = [
  'mode',
  'transfer',
  'batch_s3_url',
  'client_generated_files',
  'input_language',
  'output_format_template',
];

export async function startTestService(options: { grantTtlSeconds?: number; maxBytes?: number } = {}) {
  const storage: StorageState = {
    secret: randomUUID(),
    clock: { offsetMs: 0 },
    files: new Map(),
    lengths: [],
  };
  const access = new Set<string>();
  const refresh = new Map<string, string>();
  const transactions = new Map<string, Transaction>();
  const grants = new Map<string, string>();
  const counts = { logins: 0, refreshes: 0, grants: 0, polls: 0 };
  const log: TestService['log'] = [];
  const issue = () => {
    const pair = { access_token: `at-${randomUUID()}`, refresh_token: `rt-${randomUUID()}` };
    access.add(pair.access_token);
    refresh.set(pair.refresh_token, pair.access_token);
    return { ...pair, expires_in: 1800, refresh_expires_in: 86_400 };
  };
  let base = '';
  const service = {} as TestService;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const authorization = req.headers.authorization;
    const clientId = req.headers['client-id'] as string | undefined;
    log.push({ method: req.method ?? '', path: url.pathname, authorization, clientId });
    if (req.method === 'POST' && url.pathname === '/storage/') return handleStoragePost(storage, req, res);
    if (req.method === 'POST' && url.pathname === '/connect-auth/v1/account/login') {
      const body = await readJson(req);
      if (body.client_id !== CLIENT_ID || body.client_secret !== CLIENT_SECRET)
        return send(res, 401, { message: 'bad credentials' });
      counts.logins++;
      return send(res, 200, issue());
    }
    if (req.method === 'POST' && url.pathname === '/connect-auth/v1/account/refresh-token') {
      const body = await readJson(req);
      const owner = refresh.get(String(body.refresh_token));
      // A revoked access token may still be exchanged, with its own refresh token. Client-Id is a
      // required header of the documented refresh.
      if (
        !owner ||
        authorization !== `Bearer ${body.access_token}` ||
        owner !== body.access_token ||
        clientId !== CLIENT_ID
      ) {
        return send(res, 401, { message: 'refresh refused' });
      }
      refresh.delete(String(body.refresh_token));
      access.delete(owner);
      counts.refreshes++;
      return send(res, 200, issue());
    }
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!token || !access.has(token)) return send(res, 401, { message: 'token refused' });
    if (req.method === 'POST' && url.pathname === '/v1/file-upload') {
      const txn = url.searchParams.get('txn_id');
      if (!txn || url.searchParams.get('action') !== 'ekascribe-v2')
        return send(res, 400, { message: 'txn_id and action' });
      counts.grants++;
      const folder = `${txn}/${randomUUID()}`;
      grants.set(txn, folder);
      const expiration = new Date(Date.now() + (options.grantTtlSeconds ?? 3600) * 1000).toISOString();
      const signed = signPolicy(
        {
          expiration,
          conditions: [
            ['starts-with', '$key', `${folder}/`],
            ['content-length-range', 1, options.maxBytes ?? 5 * 1024 ** 3],
          ],
        },
        storage.secret,
      );
      return send(res, 200, {
        uploadData: {
          url: `${base}/storage/`,
          fields: {
            key: `${folder}/\${filename}`,
            'x-amz-algorithm': 'AWS4-HMAC-SHA256',
            'x-amz-credential': 'test/20261123/region/s3/aws4_request',
            'x-amz-date': '20261123T000000Z',
            'x-amz-security-token': 'session-token',
            policy: signed.policy,
            'x-amz-signature': signed.signature,
            'x-amz-meta-txn': txn,
          },
        },
        folderPath: `${folder}/`,
        txn_id: txn,
      });
    }
    const start = /^\/voice\/api\/v2\/transaction\/init\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'POST' && start) {
      const txn = decodeURIComponent(start[1]!);
      const body = await readJson(req);
      if (transactions.has(txn)) return send(res, 409, { message: 'already started' });
      const missing = REQUIRED.filter((name) => body[name] === undefined);
      if (missing.length > 0)
        return send(res, 422, { details: missing.map((name) => ({ loc: [name], msg: 'required' })) });
      const folder = grants.get(txn);
      if (!folder || body.batch_s3_url !== `${base}/storage/${folder}/`)
        return send(res, 422, { details: ['batch_s3_url'] });
      const outcome = (service.outcomeFor ?? defaultOutcome)(body);
      transactions.set(txn, { body, pending: service.pollsBeforeDone, outcome });
      return send(res, 201, { status: 'success', message: 'started', txn_id: txn, b_id: 'b-1' });
    }
    const status = /^\/voice\/api\/v3\/status\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && status) {
      counts.polls++;
      const transaction = transactions.get(decodeURIComponent(status[1]!));
      if (!transaction)
        return send(res, 400, { error: { code: 'transaction_not_found', msg: 'no such transaction' } });
      if (transaction.pending > 0) {
        transaction.pending--;
        return send(res, 202, { data: { output: [] } });
      }
      return send(res, transaction.outcome.status, {
        data: { output: transaction.outcome.output, additional_data: transaction.body.additional_data },
      });
    }
    if (req.method === 'POST' && url.pathname === '/notification/v1/connect/webhook/subscriptions') {
      const body = await readJson(req);
      service.subscriptions.push(body);
      return send(res, 201, { id: `sub-${service.subscriptions.length}`, status: 'success' });
    }
    send(res, 404, { message: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(service, {
    url: base,
    storage,
    transactions,
    counts,
    log,
    pollsBeforeDone: 0,
    subscriptions: [],
    revokeAccessTokens: () => access.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return service;
}
