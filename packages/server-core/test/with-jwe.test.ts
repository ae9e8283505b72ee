import { decryptJson, encrypt, encryptJson } from '@jwe-transport/codec';
import { describe, expect, it } from 'vitest';
import { jweInfo, withJwe } from '../src/index.js';

const KEY = 'abcdefghijklmnop';
const url = 'http://127.0.0.1/route';
const post = (body: string, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const sealed = async (value: unknown) => JSON.stringify(await encryptJson(value, KEY, { kid: 'k' }));
const echo = async (request: Request) =>
  Response.json({ body: await request.json(), info: jweInfo(request) });

describe('withJwe', () => {
  it('passes route context arguments through and marks the answer Vary: X-Encryption', async () => {
    const handler = withJwe(
      async (request: Request, context: { params: { id: string } }) => {
        return Response.json({ id: context.params.id, body: await request.json() });
      },
      { keys: { k: KEY } },
    );
    const response = await handler(post(await sealed({ a: 1 }), { 'x-encryption': 'JWE' }), {
      params: { id: '7' },
    });
    expect(response.headers.get('vary')).toContain('X-Encryption');
    expect(await decryptJson(await response.json(), KEY)).toEqual({ id: '7', body: { a: 1 } });
  });

  it("seals answers to plain requests with responses: 'always', and refuses plain bodies with requireEncryption", async () => {
    const always = withJwe(echo, { keys: { k: KEY }, responses: 'always' });
    const answer = await always(post('{"plain":true}'));
    expect(answer.headers.get('x-encryption')).toBe('JWE');
    expect(await decryptJson(await answer.json(), KEY)).toMatchObject({ body: { plain: true } });
    const required = withJwe(echo, { keys: { k: KEY }, requireEncryption: true });
    const refused = await required(post('{"plain":true}'));
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ error: { type: 'jwe.required', code: 'ERR_JWE_REQUIRED' } });
  });

  it('refuses an empty encrypted body that arrives as `null` (as Bun delivers it), but lets a bodiless request pass', async () => {
    const handler = withJwe(async () => Response.json({ reached: true }), { keys: { k: KEY } });
    const empty = new Request(url, {
      method: 'POST',
      headers: { 'x-encryption': 'JWE', 'content-length': '0' },
    });
    expect(empty.body).toBeNull();
    const refused = await handler(empty);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { type: 'jwe.envelope.invalid', code: 'ERR_JWE_INVALID' },
    });
    const bodiless = await handler(new Request(url, { headers: { 'x-encryption': 'JWE' } }));
    expect(await bodiless.json()).toEqual({ reached: true });
  });

  it('leaves non-JSON answers to encrypted requests as they are, and never seals with responses: never', async () => {
    const text = withJwe(() => new Response('ok', { headers: { 'content-type': 'text/plain' } }), {
      keys: { k: KEY },
    });
    const answer = await text(post(await sealed({}), { 'x-encryption': 'JWE' }));
    expect(answer.headers.get('x-encryption')).toBeNull();
    expect(await answer.text()).toBe('ok');
    const never = withJwe(echo, { keys: { k: KEY }, responses: 'never' });
    const plain = await never(post(await sealed({ a: 1 }), { 'x-encryption': 'JWE' }));
    expect(await plain.json()).toMatchObject({
      body: { a: 1 },
      info: { encrypted: true, kid: 'k', encryptsResponse: false },
    });
  });

  it('accepts duplicate members when strictJson is false', async () => {
    const relaxed = withJwe(echo, { keys: { k: KEY }, strictJson: false });
    const envelope = JSON.stringify(await encrypt('{"a":1,"a":2}', KEY, { kid: 'k' }));
    const answer = await relaxed(post(envelope, { 'x-encryption': 'JWE' }));
    expect(answer.status).toBe(200);
    expect(await decryptJson(await answer.json(), KEY)).toMatchObject({ body: { a: 2 } });
  });

  it('reports 5xx to onError with the request, answers them with a code and hides the message', async () => {
    const reported: unknown[] = [];
    const failing = withJwe(
      () => {
        throw new Error('database password wrong');
      },
      { keys: { k: KEY }, onError: (error) => reported.push(error) },
    );
    const answer = await failing(post('{}'));
    expect(answer.status).toBe(500);
    expect(await answer.json()).toEqual({
      error: { type: 'server.error', code: 'ERR_INTERNAL', message: 'Internal Server Error' },
    });
    expect(reported).toHaveLength(1);
  });

  it('refuses compressed bodies and X-Encryption values other than JWE', async () => {
    const handler = withJwe(echo, { keys: { k: KEY } });
    const gzip = await handler(post(await sealed({}), { 'x-encryption': 'JWE', 'content-encoding': 'gzip' }));
    expect(gzip.status).toBe(415);
    const other = await handler(post('{}', { 'x-encryption': 'none' }));
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: { type: 'jwe.header.invalid' } });
  });
});
