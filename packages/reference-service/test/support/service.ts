// A reference service on 127.0.0.1 for one test file, with a clock the tests move and two clients.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, type ServiceConfig, startService } from '../../src/index.js';

export const CLIENTS = { alpha: 'alpha-secret-0001', beta: 'beta-secret-00002' } as const;
export type ClientId = keyof typeof CLIENTS;

export interface TestService {
  service: RunningService;
  url: string;
  docsDir: string;
  clock: { now: number };
  close(): Promise<void>;
}

export async function startTestService(
  workflow: Partial<ServiceConfig['workflow']> = {},
  extra: Partial<Omit<ServiceConfig, 'workflow'>> = {},
): Promise<TestService> {
  const docsDir = await mkdtemp(join(tmpdir(), 'jwe-service-test-'));
  const clock = { now: Date.now() };
  const service = await startService({
    keys: { k1: 'svc-shared-key-1' },
    tokens: ['static-token-1'],
    port: 0,
    docsDir,
    uploadLimit: '5mb',
    generated: {},
    ...extra,
    workflow: {
      clients: { ...CLIENTS },
      processingMs: 20,
      webhookAllowHosts: ['127.0.0.1'],
      now: () => clock.now,
      ...workflow,
    },
  });
  return {
    service,
    url: service.url,
    docsDir,
    clock,
    close: async () => {
      await service.close();
      await rm(docsDir, { recursive: true, force: true });
    },
  };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  refresh_expires_in: number;
}

export async function login(url: string, clientId: ClientId): Promise<Tokens> {
  const response = await fetch(`${url}/connect-auth/v1/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: CLIENTS[clientId] }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  return (await response.json()) as Tokens;
}

export const bearer = (tokens: Tokens) => ({ authorization: `Bearer ${tokens.access_token}` });

export interface Grant {
  uploadData: { url: string; fields: Record<string, string> };
  folderPath: string;
  txn_id: string;
}

export async function grant(url: string, tokens: Tokens, txnId: string): Promise<Grant> {
  const response = await fetch(
    `${url}/v1/file-upload?txn_id=${encodeURIComponent(txnId)}&action=ekascribe-v2`,
    {
      method: 'POST',
      headers: bearer(tokens),
    },
  );
  if (response.status !== 200) throw new Error(`grant answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Grant;
}

/** A presigned POST's form: every granted field (or `fields`), then the file last. */
export function presignedForm(
  grantData: Grant,
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string> = grantData.uploadData.fields,
): FormData {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.append(field, value);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

/** A browser-style presigned POST of {@link presignedForm}. */
export function presignedPost(
  grantData: Grant,
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string> = grantData.uploadData.fields,
): Promise<Response> {
  return fetch(grantData.uploadData.url, {
    method: 'POST',
    body: presignedForm(grantData, name, bytes, fields),
  });
}

export const startBody = (grantData: Grant, files: string[], extra: Record<string, unknown> = {}) => ({
  mode: 'dictation',
  transfer: 'non-vaded',
  batch_s3_url: `${grantData.uploadData.url}${grantData.folderPath}`,
  client_generated_files: files,
  model_type: 'pro',
  input_language: ['en-IN'],
  output_format_template: [
    { template_id: 'clinical_notes_template', codification_needed: false },
    { template_id: 'eka_emr_template', codification_needed: true },
    { template_id: 'transcript_template', codification_needed: false },
  ],
  ...extra,
});

export function startTransaction(
  url: string,
  tokens: Tokens,
  txnId: string,
  body: unknown,
): Promise<Response> {
  return fetch(`${url}/voice/api/v2/transaction/init/${encodeURIComponent(txnId)}`, {
    method: 'POST',
    headers: { ...bearer(tokens), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

export function status(url: string, tokens: Tokens, txnId: string): Promise<Response> {
  return fetch(`${url}/voice/api/v3/status/${encodeURIComponent(txnId)}`, { headers: bearer(tokens) });
}
