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
