import { decryptJson, encryptJson } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { afterAuthentication, plaintextInvalid } from '../src/errors.js';
import { JweHttpError, JweServer } from '../src/index.js';

const KEY = 'abcdefghijklmnop';

async function authenticated() {
  const server = new JweServer({ keys: { k: KEY } });
  const envelope = await encryptJson({ a: 1 }, KEY, { kid: 'k' });
  return { server, opened: await server.openEnvelope(JSON.stringify(envelope)) };
}

describe('errors raised after the envelope authenticated', () => {
  it.each([
    ['a JweHttpError', () => plaintextInvalid('bad member'), 400, 'ERR_JWE_PLAINTEXT_INVALID'],
    ['a runtime error', () => new RangeError('Invalid string length'), 500, 'ERR_INTERNAL'],
  ])('%s is answered sealed under the key that opened the request', async (_name, make, status, code) => {
    const { server, opened } = await authenticated();
    const error = afterAuthentication(make(), opened);
    expect(JweHttpError.openedOf(error)).toBe(opened);
    const answer = await server.refuse(error);
    expect(answer.status).toBe(status);
    expect(answer.sealed).toBe(true);
    expect(answer.headers['x-encryption']).toBe('JWE');
    expect(answer.report).toMatchObject({ status, code, kid: 'k' });
    expect(await decryptJson(answer.body, KEY)).toMatchObject({ error: { code } });
  });

  it('leaves a thrown primitive, which cannot be marked, as the plain 500', async () => {
    const { server, opened } = await authenticated();
    const error = afterAuthentication('thrown text', opened);
    expect(JweHttpError.openedOf(error)).toBeUndefined();
    const answer = await server.refuse(error);
    expect(answer).toMatchObject({ status: 500, sealed: false });
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'ERR_INTERNAL' } });
  });

  it('does not mark errors of other requests', async () => {
    const { server } = await authenticated();
    const answer = await server.refuse(new RangeError('Invalid string length'));
    expect(answer).toMatchObject({ status: 500, sealed: false });
  });
});
