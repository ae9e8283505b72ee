// A request this library sealed is known by a private mark and never sealed again, even when it
// passes a second jweInterceptor (two composed by mistake, or one per layer of an application).
import { SHARED_KEY, startJweServer } from '@jwe-transport/test-support/client/jwe-server';
import * as undici from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jweInterceptor } from '../src/index.js';

describe('jweInterceptor composed twice', () => {
  let server: Awaited<ReturnType<typeof startJweServer>>;
  let agent: undici.Agent;
  beforeAll(async () => {
    server = await startJweServer();
    agent = new undici.Agent();
  });
  afterAll(async () => {
    await agent.close();
    await server.close();
  });

  for (const [label, body, headers] of [
    ['JSON', JSON.stringify({ a: 1 }), { 'content-type': 'application/json' }],
    ['bytes', new Uint8Array([1, 2, 3, 4]), {}],
  ] as const) {
    it(`${label}: the route reads the plaintext, sealed once, and the answer is opened once`, async () => {
      const options = { key: SHARED_KEY, origins: [server.origin] };
      const dispatcher = agent.compose(jweInterceptor(options), jweInterceptor(options));
      const response = await undici.request(`${server.url}/twice-${label}`, {
        method: 'POST',
        dispatcher,
        body,
        headers,
      });
      expect(response.statusCode).toBe(200);
      const answer = (await response.body.json()) as { json: unknown; file: unknown };
      const record = server.last();
      expect(record.encrypted).toBe(true);
      if (label === 'JSON') {
        expect(record.json).toEqual({ a: 1 });
        expect(answer.json).toEqual({ a: 1 });
      } else {
        expect(record.file).toMatchObject({ size: 4 });
        expect(answer.file).toMatchObject({ size: 4 });
      }
    });
  }
});
