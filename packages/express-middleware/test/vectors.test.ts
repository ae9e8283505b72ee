import { createHash } from 'node:crypto';
import { decryptJson, type KeyResolver, keyring } from '@jwe-transport/codec';
import { jwe, jweErrorHandler, uploadedFile } from '@jwe-transport/express-middleware';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMalformed, loadVectors, type MalformedCase } from '../../../test-vectors/index.js';
import { EXPRESS_VERSIONS, listen, postEncrypted, type Running } from './helpers.js';

const EXPECTED: Record<string, { status: number; type: string }> = {
  ERR_JWE_INVALID: { status: 400, type: 'jwe.envelope.invalid' },
  ERR_JWE_UNSUPPORTED: { status: 400, type: 'jwe.unsupported' },
  ERR_KEY_UNKNOWN: { status: 400, type: 'jwe.kid.unknown' },
  ERR_JWE_DECRYPTION_FAILED: { status: 400, type: 'jwe.decrypt.failed' },
  ERR_JWE_TOO_LARGE: { status: 413, type: 'entity.too.large' },
};

const malformed = loadMalformed();
const vectors = loadVectors().filter((vector) => vector.kind === 'json' || vector.kind === 'file');

/** The case's keys as the codec tests use them: its keyring, or its one key whatever the kid. */
function keysFor(test: MalformedCase): KeyResolver {
  return test.keys ? keyring(test.keys) : () => test.key;
}

const wire = (input: unknown) => (typeof input === 'string' ? input : JSON.stringify(input));

describe.each(EXPRESS_VERSIONS)('the shared test vectors through jwe() on $name', ({ create }) => {
  let running: Running;

  beforeAll(async () => {
    const app = create();
    malformed.forEach((test, index) => {
      const options = test.options?.missingProtected
        ? { missingProtected: test.options.missingProtected }
        : {};
      app.post(`/malformed/${index}`, jwe({ keys: keysFor(test), ...options }), (req, res) =>
        res.json(req.body),
      );
    });
    vectors.forEach((vector, index) => {
      const transport = jwe({ keys: () => vector.key });
      const route = `/vector/${index}`;
      if (vector.kind === 'json') app.post(route, transport, (req, res) => res.json(req.body));
      else
        app.post(route, transport.upload(), (req, res) => {
          res.json({
            sha256: createHash('sha256')
              .update(uploadedFile(req).buffer ?? '')
              .digest('base64'),
          });
        });
    });
    app.use(jweErrorHandler());
    running = await listen(app);
  });
  afterAll(() => running.close());

  it(`answers each of the ${malformed.length} malformed inputs with its 4xx type and keeps serving`, async () => {
    expect(malformed.length).toBeGreaterThan(20);
    for (const [index, test] of malformed.entries()) {
      const expected = EXPECTED[test.code];
      const response = await postEncrypted(`${running.url}/malformed/${index}`, wire(test.input));
      const answer = await response.json();
      expect({
        name: test.name,
        status: response.status,
        type: answer.error?.type,
        code: answer.error?.code,
      }).toEqual({
        name: test.name,
        status: expected?.status,
        type: expected?.type,
        code: test.code,
      });
    }
    // Still serving: a good envelope after all of them.
    const good = vectors.find((vector) => vector.kind === 'json');
    const response = await postEncrypted(`${running.url}/vector/${vectors.indexOf(good!)}`, good!.envelope);
    expect(response.status).toBe(200);
  });

  it('accepts every JSON and file vector, whoever produced it, and answers under the same key', async () => {
    expect(new Set(vectors.map((vector) => vector.producer)).size).toBeGreaterThan(1);
    for (const [index, vector] of vectors.entries()) {
      const response = await postEncrypted(`${running.url}/vector/${index}`, vector.envelope);
      expect({ name: vector.name, status: response.status }).toEqual({ name: vector.name, status: 200 });
      const answer = await decryptJson(await response.json(), vector.key);
      if (vector.kind === 'json') expect(answer).toEqual(vector.json);
      else {
        const file = Buffer.from(vector.file?.base64 ?? '', 'base64');
        expect(answer).toEqual({ sha256: createHash('sha256').update(file).digest('base64') });
      }
    }
  });
});
