import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ReferenceService } from '../support/reference-service.js';

/** What `page-kit.js#outcome` reports: the scenario's value, or the error it threw. */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; error: { name?: string; code?: string; status?: number; message: string } };

/** An answer as a client scenario reports it: status and decrypted body. */
export interface Answer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export interface PageFacts {
  origin: string;
  hasProcess: boolean;
  hasBuffer: boolean;
}

export interface ErrorBody {
  error: { type: string; code?: string };
}

export interface DocumentBody {
  document_id: string;
  size: number;
  sha256: string;
  encrypted: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function succeeded<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new Error(`The page scenario failed: ${JSON.stringify(outcome.error)}`);
  return outcome.value;
}

/** The bundle ran as browser code: no Node globals were pulled in to make it work. */
export function expectBrowserPage(page: PageFacts, origin: string): void {
  expect(page).toEqual({ origin, hasProcess: false, hasBuffer: false });
}

/** Registration (encrypted-only route): a 200 proves the request was sealed; the body was opened. */
export function expectRegistration(outcome: Outcome<Answer>): void {
  const answer = succeeded(outcome);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ status: 'otp_sent', txn_id: expect.stringMatching(UUID) });
}

/** The Blob arrived whole, through an encrypted upload, and the sealed answer was opened. */
export async function expectStoredUpload(
  outcome: Outcome<Answer<DocumentBody> & { sentSha256: string; sentSize: number }>,
  service: ReferenceService,
): Promise<void> {
  const answer = succeeded(outcome);
  expect(answer.status).toBe(200);
  expect(answer.sentSize).toBe(70_001);
  expect(answer.body).toMatchObject({ size: answer.sentSize, sha256: answer.sentSha256, encrypted: true });
  const stored = await readFile(join(service.store.dir, answer.body.document_id));
  expect(createHash('sha256').update(stored).digest('hex')).toBe(answer.sentSha256);
}

/** The service's 400 for a bad Aadhaar number, sealed, read in the page as plaintext. */
export function expectValidationError(status: number | undefined, body: ErrorBody | undefined): void {
  expect(status).toBe(400);
  expect(body?.error).toMatchObject({ type: 'validation.failed', code: 'ERR_VALIDATION' });
}

/** The service's answer to an envelope sealed under a key it does not hold for the kid. */
export function expectServiceRefusedKey(status: number | undefined, body: ErrorBody | undefined): void {
  expect(status).toBe(400);
  expect(body?.error).toMatchObject({ type: 'jwe.decrypt.failed', code: 'ERR_JWE_DECRYPTION_FAILED' });
}

/** An answer as the codec scenarios see it: with the `X-Encryption` header the service sent. */
export type WireAnswer<T = Record<string, unknown>> = Answer<T> & { xEncryption: string | null };

/** What `scenarios/codec.js` answers, wherever it ran. */
export interface CodecRun {
  backend: string;
  json: Outcome<WireAnswer>;
  file: Outcome<WireAnswer<DocumentBody> & { sentSha256: string; sentSize: number }>;
  error: Outcome<WireAnswer<ErrorBody>>;
  wrongKeyRequest: Outcome<WireAnswer<ErrorBody>>;
  wrongKeyResponse: Outcome<WireAnswer>;
}

/** Every codec scenario came out as it must: sealed both ways, errors read, wrong keys refused. */
export async function expectCodecScenarios(run: CodecRun, service: ReferenceService): Promise<void> {
  expectRegistration(run.json);
  const sealed = [succeeded(run.json), succeeded(run.file), succeeded(run.error)];
  expect(sealed.map((answer) => answer.xEncryption)).toEqual(['JWE', 'JWE', 'JWE']);
  await expectStoredUpload(run.file, service);
  const error = succeeded(run.error);
  expectValidationError(error.status, error.body);
  const refused = succeeded(run.wrongKeyRequest);
  expectServiceRefusedKey(refused.status, refused.body);
  expect(refused.xEncryption).toBeNull();
  expect(run.wrongKeyResponse).toMatchObject({ ok: false, error: { code: 'ERR_JWE_DECRYPTION_FAILED' } });
}

/** What the client scenarios (fetch wrapper, ky, axios) answer, wherever they ran. */
export interface ClientRun {
  json: Outcome<Answer>;
  file: Outcome<Answer<DocumentBody> & { sentSha256: string; sentSize: number }>;
  error: Outcome<Answer<ErrorBody>>;
  wrongKeyRequest: Outcome<Answer<ErrorBody>>;
}

/** A client sealed JSON and a file, read a sealed error, and passed the service's refusal through. */
export async function expectClientScenarios(run: ClientRun, service: ReferenceService): Promise<void> {
  expectRegistration(run.json);
  await expectStoredUpload(run.file, service);
  const error = succeeded(run.error);
  expectValidationError(error.status, error.body);
  const refused = succeeded(run.wrongKeyRequest);
  expectServiceRefusedKey(refused.status, refused.body);
}
