import { encryptJson } from '@jwe-transport/codec';
import {
  captureLogger as capture,
  expectSealFailureLogged,
  expectUnsealedAnswer,
  LOGGING_KEY as KEY,
  SEAL_FAILURE_PLAINTEXT,
  UNSEALABLE,
  WRONG_KEY as WRONG,
  wrongKeyRequest,
} from '@jwe-transport/test-support/server-conformance/logger';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { describe, expect, it } from 'vitest';
import { type Refusal, sealResponse, withJwe } from '../src/index.js';
import { JweServer } from '../src/jwe-server.js';
import { openRequest } from '../src/web.js';

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

  it('reports an answer it could not seal: error line with the cause, onReject and onError; the client gets the plain 500', async () => {
    const { lines, logger } = capture();
    const rejected: Refusal[] = [];
    const errors: unknown[] = [];
    const handler = withJwe(() => Response.json(SEAL_FAILURE_PLAINTEXT), {
      ...UNSEALABLE,
      logger,
      onReject: (_error, refusal) => rejected.push(refusal),
      onError: (error) => errors.push(error),
    });
    const running = await serveFetch(handler);
    try {
      await expectUnsealedAnswer(await fetch(`${running.url}/answer`));
      const err = expectSealFailureLogged(lines);
      expect(rejected).toEqual([
        {
          status: 500,
          code: 'ERR_JWE_ENCRYPT_FAILED',
          type: 'jwe.encrypt.failed',
          kid: 'answers',
          message: 'The server could not encrypt its answer.',
        },
      ]);
      expect(errors).toEqual([err]);
    } finally {
      await running.close();
    }
  });

  it('reports a refusal whose answer could not be sealed twice: the refusal, then the failure', async () => {
    const { lines, logger } = capture();
    const handler = withJwe(
      () => {
        throw new Error('route broke');
      },
      { ...UNSEALABLE, logger },
    );
    const running = await serveFetch(handler);
    try {
      await expectUnsealedAnswer(await fetch(`${running.url}/answer`));
      expect(lines.map((line) => [line.level, line.details.code])).toEqual([
        ['error', 'ERR_INTERNAL'],
        ['error', 'ERR_JWE_ENCRYPT_FAILED'],
      ]);
      expect((lines[1]!.details.err as Error).message).toMatch(
        /^The route's 500 answer \(\d+ (characters|bytes) of JSON\) could not be encrypted/,
      );
    } finally {
      await running.close();
    }
  });

  it('sealResponse reports a failure to seal to the reporting it is given; logger: false silences it', async () => {
    const server = new JweServer(UNSEALABLE);
    const request = new Request('http://127.0.0.1/answer');
    const opened = await openRequest(server, request);
    const { lines, logger } = capture();
    const rejected: Refusal[] = [];
    const answer = await sealResponse(server, Response.json(SEAL_FAILURE_PLAINTEXT), opened, {
      logger,
      onReject: (_error, refusal) => rejected.push(refusal),
    });
    await expectUnsealedAnswer(answer);
    expect(lines.map((line) => line.details.code)).toEqual(['ERR_JWE_ENCRYPT_FAILED']);
    expect(rejected.map((refusal) => refusal.code)).toEqual(['ERR_JWE_ENCRYPT_FAILED']);
    const silent = await sealResponse(server, Response.json(SEAL_FAILURE_PLAINTEXT), opened, {
      logger: false,
    });
    await expectUnsealedAnswer(silent);
    expect(lines).toHaveLength(1);
  });
});
