import { encryptJson } from '@jwe-transport/codec';
import {
  captureLogger as capture,
  LOGGING_KEY as KEY,
  WRONG_KEY as WRONG,
  wrongKeyRequest,
} from '@jwe-transport/test-support/server-conformance/logger';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { describe, expect, it } from 'vitest';
import { type Refusal, withJwe } from '../src/index.js';

describe('withJwe refusal reporting', () => {
  it('logs a wrong-key request at info with code, status and kid, and calls onReject; never the key', async () => {
    const { lines, logger } = capture();
    const rejected: Refusal[] = [];
    const handler = withJwe(async (request) => Response.json(await request.json()), {
      keys: { 'partner-7': KEY },
      logger,
      onReject: (_error, refusal) => rejected.push(refusal),
    });
    const running = await serveFetch(handler);
    try {
      const { url, ...init } = await wrongKeyRequest(running.url);
      const response = await fetch(url, init);
      expect(response.status).toBe(400);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'info',
        details: {
          status: 400,
          code: 'ERR_JWE_DECRYPTION_FAILED',
          type: 'jwe.decrypt.failed',
          kid: 'partner-7',
        },
      });
      expect(lines[0]!.details).not.toHaveProperty('err');
      expect(JSON.stringify(lines)).not.toContain(KEY);
      expect(JSON.stringify(lines)).not.toContain(WRONG);
      expect(rejected).toEqual([
        expect.objectContaining({ code: 'ERR_JWE_DECRYPTION_FAILED', kid: 'partner-7' }),
      ]);
    } finally {
      await running.close();
    }
  });

  it('logs a 5xx at error with the error (its stack), and caps an unauthenticated kid', async () => {
    const { lines, logger } = capture();
    const handler = withJwe(
      () => {
        throw new Error('boom');
      },
      { keys: { k: KEY }, logger },
    );
    const running = await serveFetch(handler);
    try {
      const ok = await encryptJson({ a: 1 }, KEY, { kid: 'k' });
      const failed = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
        body: JSON.stringify(ok),
      });
      expect(failed.status).toBe(500);
      expect(lines[0]).toMatchObject({
        level: 'error',
        details: { status: 500, code: 'ERR_INTERNAL', kid: 'k' },
      });
      expect((lines[0]!.details.err as Error).stack).toContain('boom');
      const long = await encryptJson({ a: 1 }, KEY, { kid: `${'x'.repeat(500)}\nforged` });
      await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
        body: JSON.stringify(long),
      });
      expect(lines[1]).toMatchObject({
        level: 'info',
        details: { code: 'ERR_KEY_UNKNOWN', kid: 'x'.repeat(64) },
      });
    } finally {
      await running.close();
    }
  });
});
