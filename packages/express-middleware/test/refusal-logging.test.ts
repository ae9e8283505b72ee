import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import {
  captureLogger,
  expectSealFailureLogged,
  expectUnsealedAnswer,
  expectWrongKeyRefusalLogged,
  LOGGING_KEY as KEY,
  SEAL_FAILURE_PLAINTEXT,
  UNSEALABLE,
  wrongKeyRequest,
} from '@jwe-transport/test-support/server-conformance/logger';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, listen, type Running } from './helpers.js';

describe.each(EXPRESS_VERSIONS)('refusals reported on $name', ({ create }) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('logs a wrong-key request at info with code, status and kid (no stack, no key), and calls onReject', async () => {
    const { lines, logger } = captureLogger();
    const rejected: unknown[] = [];
    const app = create();
    app.post(
      '/echo',
      jwe({ keys: { 'partner-7': KEY }, logger, onReject: (_e, r) => rejected.push(r) }),
      (req, res) => res.json(req.body),
    );
    app.use(jweErrorHandler());
    running = await listen(app);
    const { url, ...init } = await wrongKeyRequest(`${running.url}/echo`);
    const response = await fetch(url, init);
    expect(response.status).toBe(400);
    expectWrongKeyRefusalLogged(lines);
    expect(rejected).toEqual([expect.objectContaining({ status: 400, code: 'ERR_JWE_DECRYPTION_FAILED' })]);
  });

  it("sees route errors (5xx) through the error handler's logger, at error with the error", async () => {
    const { lines, logger } = captureLogger();
    const app = create();
    app.post('/fail', () => {
      throw new Error('route broke');
    });
    app.use(jweErrorHandler({ logger }));
    running = await listen(app);
    const response = await fetch(`${running.url}/fail`, { method: 'POST' });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'ERR_INTERNAL' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'error', details: { status: 500, code: 'ERR_INTERNAL' } });
    expect((lines[0]!.details.err as Error).message).toBe('route broke');
  });

  it("reports an answer it could not seal through jwe()'s logger and onReject, at error with the cause", async () => {
    const { lines, logger } = captureLogger();
    const rejected: unknown[] = [];
    const app = create();
    app.use(jwe({ ...UNSEALABLE, logger, onReject: (_e, r) => rejected.push(r) }));
    app.get('/answer', (_req, res) => res.json(SEAL_FAILURE_PLAINTEXT));
    app.get('/fail', () => {
      throw new Error('route broke');
    });
    app.use(jweErrorHandler({ logger }));
    running = await listen(app);
    await expectUnsealedAnswer(await fetch(`${running.url}/answer?token=x`));
    expectSealFailureLogged(lines);
    expect(rejected).toEqual([expect.objectContaining({ status: 500, code: 'ERR_JWE_ENCRYPT_FAILED' })]);
    // An error answer goes through the same sealing: the route's error, then the seal's failure.
    await expectUnsealedAnswer(await fetch(`${running.url}/fail`));
    expect(lines.slice(1).map((line) => [line.details.path, line.details.code])).toEqual([
      ['/fail', 'ERR_INTERNAL'],
      ['/fail', 'ERR_JWE_ENCRYPT_FAILED'],
    ]);
  });
});
