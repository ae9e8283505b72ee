import { encryptJson } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import { type ChannelRecording, recordChannel } from '@jwe-transport/test-support/diagnostics';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, KEY_A, KEY_B, KEYS, listen, type Running } from './helpers.js';

let server: Running | undefined;
let recording: ChannelRecording | undefined;
afterEach(async () => {
  recording?.stop();
  await server?.close();
  server = recording = undefined;
});

describe.each(EXPRESS_VERSIONS)('jwe-transport:open on $name', ({ create }) => {
  it('publishes a wrong-key request as an error with its code and kid, without the keys', async () => {
    const app = create();
    app.use(jwe({ keys: KEYS }));
    app.post('/echo', (req, res) => {
      res.json(req.body);
    });
    app.use(jweErrorHandler());
    server = await listen(app);
    recording = recordChannel('jwe-transport:open');

    const response = await fetch(`${server.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      // kid-a's envelope sealed with kid-b's key: the tag cannot verify.
      body: JSON.stringify(await encryptJson({ hello: 'world' }, KEY_B, { kid: 'kid-a' })),
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
    });
    for (const secret of [KEY_A, KEY_B, 'world']) expect(recording.serialized()).not.toContain(secret);
  });
});
