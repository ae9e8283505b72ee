import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, decryptionInfo, wasDecrypted } from './helpers/imports.js';
import { type Service, SHARED_KEY, startService } from './helpers/service.js';

describe('a decrypted response is a genuine Response', () => {
  let service: Service;
  const jweFetch = createJweFetch({ key: SHARED_KEY });
  const fetchDecrypted = async () => {
    const response = await jweFetch(`${service.url}/genuine?kid=svc`, { method: 'POST', body: '{"n":7}' });
    expect(wasDecrypted(response)).toBe(true);
    return response;
  };
  const expected = (text: string) => expect(JSON.parse(text)).toMatchObject({ json: { n: 7 } });

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it('is a plain Response whose native methods read the plaintext', async () => {
    const response = await fetchDecrypted();
    expect(Object.getPrototypeOf(response)).toBe(Response.prototype);
    expect(response.url).toBe(`${service.url}/genuine?kid=svc`);
    expected(await Response.prototype.text.call(response));
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('clones: both copies read the plaintext and the clone is marked decrypted too', async () => {
    const response = await fetchDecrypted();
    const copy = response.clone();
    expect(wasDecrypted(copy)).toBe(true);
    expect(decryptionInfo(copy)).toEqual({ kid: 'svc', headerSource: 'protected' });
    expect(copy.url).toBe(response.url);
    expected(await copy.text());
    expected(await response.text());
  });

  it('has a readable body stream that a new Response can take over', async () => {
    const response = await fetchDecrypted();
    expect(response.body).toBeInstanceOf(ReadableStream);
    const moved = new Response(response.body);
    expected(await moved.text());
    expect(response.bodyUsed).toBe(true);
  });

  it('answers blob(), arrayBuffer() and json() like any Response, with the decrypted headers', async () => {
    const response = await fetchDecrypted();
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-jwe-decrypted')).toBe('svc');
    const blob = await response.clone().blob();
    expected(await blob.text());
    expected(new TextDecoder().decode(await response.clone().arrayBuffer()));
    expect(await response.json()).toMatchObject({ json: { n: 7 } });
  });

  it('is not marked when it was not decrypted, whatever headers the server sent', async () => {
    const response = await jweFetch(`${service.url}/plain?reply=plain`);
    expect(wasDecrypted(response)).toBe(false);
    expect(decryptionInfo(response)).toBeUndefined();
  });
});
