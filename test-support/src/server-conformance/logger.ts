import { encryptJson } from '@jwe-transport/codec';
import { expect } from 'vitest';

/** One line a `JweLogger` was given. */
export interface LoggedLine {
  level: 'info' | 'error';
  details: Record<string, unknown>;
  message: string;
}

/** A `{ info, error }` logger that keeps what it is given, for the adapters' logging tests. */
export function captureLogger() {
  const lines: LoggedLine[] = [];
  const keep = (level: LoggedLine['level']) => (details: object, message: string) => {
    lines.push({ level, details: details as Record<string, unknown>, message });
  };
  return { lines, logger: { info: keep('info'), error: keep('error') } };
}

/** The key every logging test's server knows, and the one its wrong-key request is sealed with. */
export const LOGGING_KEY = 'abcdefghijklmnop';
export const WRONG_KEY = 'ponmlkjihgfedcba';

/** The request an operator sees at 2 a.m.: a partner's envelope sealed with the wrong key. */
export async function wrongKeyRequest(
  url: string,
  kid = 'partner-7',
): Promise<RequestInit & { url: string }> {
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
    body: JSON.stringify(await encryptJson({ a: 1 }, WRONG_KEY, { kid })),
  };
}

/** What the info line for that request (a POST to /echo) holds on every adapter. */
export const WRONG_KEY_DETAILS = {
  method: 'POST',
  path: '/echo',
  status: 400,
  code: 'ERR_JWE_DECRYPTION_FAILED',
  type: 'jwe.decrypt.failed',
  kid: 'partner-7',
} as const;

/** Asserts the one line a wrong-key request leaves in a captured logger: info, its details, never the key. */
export function expectWrongKeyRefusalLogged(lines: LoggedLine[]): void {
  expect(lines).toEqual([
    {
      level: 'info',
      details: { ...WRONG_KEY_DETAILS },
      message: expect.stringMatching(/^jwe: request refused \(400 ERR_JWE_DECRYPTION_FAILED\)/),
    },
  ]);
  expect(JSON.stringify(lines)).not.toContain(WRONG_KEY);
}

/**
 * Options under which no answer can be sealed: every answer is sealed (`responses: 'always'`) with
 * the key a resolver gives for `ANSWER_KID`, and that key is unusable (too short), as an unset or
 * mistyped environment variable would make it. The routes answer `SEAL_FAILURE_PLAINTEXT`.
 */
export const UNSEALABLE = {
  keys: (kid: string | undefined) => (kid === ANSWER_KID ? UNUSABLE_KEY : undefined),
  responses: 'always',
  responseKid: 'answers',
} as const;
const ANSWER_KID = 'answers';
const UNUSABLE_KEY = 'short-key';

/** What the routes under `UNSEALABLE` answer; it must appear in no answer and no log line. */
export const SEAL_FAILURE_PLAINTEXT = { secret: 'plaintext-never-logged' };

/** What the error line for an answer that could not be sealed holds on every adapter (a GET to /answer). */
export const SEAL_FAILURE_DETAILS = {
  method: 'GET',
  path: '/answer',
  status: 500,
  code: 'ERR_JWE_ENCRYPT_FAILED',
  kid: ANSWER_KID,
} as const;

/**
 * Asserts the answer to a route whose answer could not be sealed: the generic plain 500, never
 * the plaintext. Returns its text.
 */
export async function expectUnsealedAnswer(response: Response): Promise<string> {
  expect(response.status).toBe(500);
  expect(response.headers.get('x-encryption')).toBeNull();
  const text = await response.text();
  expect(JSON.parse(text)).toEqual({
    error: {
      type: 'jwe.encrypt.failed',
      code: 'ERR_JWE_ENCRYPT_FAILED',
      message: 'The server could not encrypt its answer.',
    },
  });
  return text;
}

/** Asserts that a logged seal failure's error says why (the key's size) without the key or the plaintext. */
export function expectSealFailureError(error: { message: string; stack?: string }, cause?: unknown): void {
  expect(error.message).toMatch(
    /^The route's 200 answer \(\d+ (characters|bytes) of JSON\) could not be encrypted, so the client got a plain 500/,
  );
  expect(error.message).toMatch(/key/i);
  for (const text of [error.message, error.stack ?? '', String(cause ?? '')]) {
    expect(text).not.toContain(UNUSABLE_KEY);
    expect(text).not.toContain(SEAL_FAILURE_PLAINTEXT.secret);
  }
}

/**
 * Asserts the one line a route's unsealable answer (a GET to /answer under `UNSEALABLE`) leaves in
 * a captured logger: error level, its details, an error whose cause is the key's size. Returns the error.
 */
export function expectSealFailureLogged(lines: LoggedLine[]): Error {
  expect(lines).toEqual([
    {
      level: 'error',
      details: { ...SEAL_FAILURE_DETAILS, err: expect.any(Error) },
      message: 'jwe: request failed (500 ERR_JWE_ENCRYPT_FAILED)',
    },
  ]);
  const err = lines[0]!.details.err as Error & { code: string; cause: { code?: string } };
  expect(err.code).toBe('ERR_JWE_ENCRYPT_FAILED');
  expect(err.cause.code).toBe('ERR_KEY_INVALID');
  expectSealFailureError(err, err.cause);
  return err;
}
