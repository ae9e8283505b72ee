import { randomBytes } from 'node:crypto';
import { encryptFile } from '@jwe-transport/codec';
import { jwe, jweErrorHandler } from '@jwe-transport/express-middleware';
import type { Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPRESS_VERSIONS, KEY_A, KEYS, listen, postEncrypted, type Running } from './helpers.js';

describe.each(EXPRESS_VERSIONS)('mount order on $name', ({ create, json }) => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(configure: (app: Express) => void) {
    const app = create();
    configure(app);
    app.use(jweErrorHandler({ onError: () => {} }));
    running = await listen(app);
    return running.url;
  }

  const upload = async () => encryptFile(randomBytes(300_000), KEY_A, { kid: 'kid-a' });
  const sizeOf = (req: { file?: { size: number } | undefined }) => ({ size: req.file?.size });

  it('explains a 413 from an app-level jwe() in front of a route whose upload() allows more', async () => {
    const url = await start((app) => {
      const transport = jwe({ keys: KEYS });
      app.use(transport);
      app.post('/docs', transport.upload({ limit: '5mb' }), (req, res) => res.json(sizeOf(req)));
    });
    const response = await postEncrypted(`${url}/docs`, await upload());
    expect(response.status).toBe(413);
    const { error } = await response.json();
    expect(error.code).toBe('ERR_JWE_TOO_LARGE');
    expect(error.message).toContain(
      'jwe() read this body before any upload() handler; its limit is 102400 bytes',
    );
  });

  it('takes the same upload when the upload route is declared before app.use(jwe())', async () => {
    const url = await start((app) => {
      const transport = jwe({ keys: KEYS });
      app.post('/docs', transport.upload({ limit: '5mb' }), (req, res) => res.json(sizeOf(req)));
      app.use(transport);
    });
    const response = await postEncrypted(`${url}/docs`, await upload());
    expect(response.status).toBe(200);
  });

  it('refuses with 500 jwe.mount.order an encrypted upload that express.json() read first', async () => {
    const url = await start((app) => {
      app.use(json({ limit: '5mb' }));
      app.post('/docs', jwe({ keys: KEYS }).upload({ limit: '5mb' }), (req, res) => res.json(sizeOf(req)));
    });
    const response = await postEncrypted(`${url}/docs`, await upload());
    expect(response.status).toBe(500);
    expect((await response.json()).error).toMatchObject({
      type: 'server.error',
      code: 'ERR_JWE_MOUNT_ORDER',
    });
  });

  it("keeps express.json() off encrypted requests with its type option, as the README's recipe does", async () => {
    const url = await start((app) => {
      app.use(json({ type: (req) => req.headers['x-encryption'] === undefined }));
      app.post('/docs', jwe({ keys: KEYS }).upload({ limit: '5mb' }), (req, res) => res.json(sizeOf(req)));
    });
    const response = await postEncrypted(`${url}/docs`, await upload());
    expect(response.status).toBe(200);
  });
});
