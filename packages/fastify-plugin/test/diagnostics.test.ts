import type { AddressInfo } from 'node:net';
import { encryptJson } from '@jwe-transport/codec';
import { jwe } from '@jwe-transport/fastify-plugin';
import { type ChannelRecording, recordChannel } from '@jwe-transport/test-support/diagnostics';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';

const KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' };
let app: FastifyInstance | undefined;
let recording: ChannelRecording | undefined;
afterEach(async () => {
  recording?.stop();
  await app?.close();
  app = recording = undefined;
});

describe('jwe-transport:open on Fastify', () => {
  it('publishes a wrong-key request as an error with its code and kid, without the keys', async () => {
    app = Fastify();
    await app.register(jwe, { keys: KEYS });
    app.post('/echo', async (request) => request.body);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    recording = recordChannel('jwe-transport:open');

    const response = await fetch(`${url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      // kid-a's envelope sealed with kid-b's key: the tag cannot verify.
      body: JSON.stringify(await encryptJson({ hello: 'world' }, KEYS['kid-b'], { kid: 'kid-a' })),
    });
    expect(response.status).toBe(400);

    const errors = recording.events.filter((e) => e.event === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.context).toMatchObject({
      operation: 'open',
      side: 'server',
      kid: 'kid-a',
      outcome: 'refused',
      code: 'ERR_JWE_DECRYPTION_FAILED',
      error: { status: 400, code: 'ERR_JWE_DECRYPTION_FAILED' },
    });
    for (const secret of [...Object.values(KEYS), 'world'])
      expect(recording.serialized()).not.toContain(secret);
  });
});
