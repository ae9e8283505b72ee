import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJweFetch, JweRequestError } from '../src/index.js';
import { randomFile, type Service, SHARED_KEY, startService } from './helpers/service.js';

async function refusal(call: Promise<unknown>): Promise<JweRequestError> {
  const error = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(JweRequestError);
  return error as JweRequestError;
}

describe('a request configured for encryption never leaves in plaintext', () => {
  let service: Service;
  const jweFetch = createJweFetch({ key: SHARED_KEY, kid: 'kid-1' });
  const post = (body: BodyInit, headers?: HeadersInit) =>
    jweFetch(`${service.url}/upload`, { method: 'POST', body, ...(headers ? { headers } : {}) });

  beforeAll(async () => {
    service = await startService();
  });
  afterAll(() => service.close());

  it('refuses a FormData whose file is in another field than fileField, and sends nothing', async () => {
    const form = new FormData();
    form.set('document', new Blob([randomFile(100).bytes]), 'scan.pdf');
    const error = await refusal(post(form));
    expect(error.code).toBe('ERR_JWE_FILE_FIELD');
    expect(error.message).toContain('field "document"');
    expect(error.message).toContain('"fileField"');
    expect(service.arrivals).toHaveLength(0);
  });

  it('takes the file from the configured fileField', async () => {
    const file = randomFile(3000);
    const form = new FormData();
    form.set('document', new Blob([file.bytes]), 'scan.pdf');
    const response = await createJweFetch({ key: SHARED_KEY, fileField: 'document' })(`${service.url}/doc`, {
      method: 'POST',
      body: form,
    });
    expect(await response.json()).toMatchObject({
      encrypted: true,
      file: { size: 3000, sha256: file.sha256 },
    });
  });

  it('refuses a FormData with several files', async () => {
    const before = service.arrivals.length;
    const form = new FormData();
    form.append('file', new Blob(['a']), 'a.txt');
    form.append('file', new Blob(['b']), 'b.txt');
    const error = await refusal(post(form));
    expect(error.code).toBe('ERR_JWE_FORM_UNSUPPORTED');
    expect(error.message).toContain('2 files');
    expect(service.arrivals.length).toBe(before);
  });

  it('refuses a FormData with text fields beside the file, or without a file', async () => {
    const before = service.arrivals.length;
    const withText = new FormData();
    withText.set('file', new Blob(['a']), 'a.txt');
    withText.set('note', 'hello');
    const mixed = await refusal(post(withText));
    expect(mixed.code).toBe('ERR_JWE_FORM_UNSUPPORTED');
    expect(mixed.message).toContain('text fields "note"');
    const textOnly = new FormData();
    textOnly.set('name', 'x');
    expect((await refusal(post(textOnly))).code).toBe('ERR_JWE_FORM_UNSUPPORTED');
    expect(service.arrivals.length).toBe(before);
  });

  it('refuses bodies it cannot seal: URLSearchParams, text that is not JSON, a text stream', async () => {
    const before = service.arrivals.length;
    const form = await refusal(post(new URLSearchParams({ a: '1' })));
    expect(form.code).toBe('ERR_JWE_BODY_UNSUPPORTED');
    expect(form.message).toContain('URLSearchParams');
    const text = await refusal(post('just words'));
    expect(text.code).toBe('ERR_JWE_BODY_UNSUPPORTED');
    expect(text.message).toMatch(/10-byte string that is not JSON, no content type/);
    const stream = new ReadableStream({ pull: (controller) => controller.close() });
    const streamed = await refusal(
      jweFetch(`${service.url}/x`, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'text/csv' },
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.code).toBe('ERR_JWE_BODY_UNSUPPORTED');
    expect(service.arrivals.length).toBe(before);
  });

  it('seals JSON sent as a string without a JSON content type', async () => {
    const response = await post('{"aadhaar_number":"999941057058"}');
    expect(service.arrivals.at(-1)!.encrypted).toBe(true);
    expect(JSON.stringify(service.arrivals.at(-1)!.envelope)).not.toContain('999941057058');
    expect(await response.json()).toMatchObject({ json: { aadhaar_number: '999941057058' } });
  });

  it('seals a Blob and a byte array as file uploads, and a Request whose body is a form', async () => {
    const file = randomFile(5000);
    for (const body of [new Blob([file.bytes]), file.bytes, file.bytes.buffer]) {
      const response = await post(body as BodyInit);
      expect(await response.json()).toMatchObject({
        encrypted: true,
        file: { size: 5000, sha256: file.sha256 },
      });
    }
    const form = new FormData();
    form.set('file', new Blob([file.bytes]), 'a.bin');
    const response = await jweFetch(new Request(`${service.url}/req`, { method: 'POST', body: form }));
    expect(await response.json()).toMatchObject({ file: { sha256: file.sha256 } });
  });

  it('names the kid when the key resolver has no key for it', async () => {
    const before = service.arrivals.length;
    const error = await refusal(
      createJweFetch({ key: () => undefined, kid: 'kid-2027' })(`${service.url}/x`, {
        method: 'POST',
        body: '{}',
      }),
    );
    expect(error.code).toBe('ERR_KEY_UNKNOWN');
    expect(error.message).toContain('kid "kid-2027"');
    const short = await refusal(
      createJweFetch({ key: () => new Uint8Array(16), kid: 'kid-short' })(`${service.url}/x`, {
        method: 'POST',
        body: '{}',
      }),
    );
    expect(short.code).toBe('ERR_KEY_INVALID');
    expect(short.message).toContain('16 raw key bytes, expected 32 for kid "kid-short"');
    expect(service.arrivals.length).toBe(before);
  });

  it('rejects a wrong static key at setup, saying what it got', () => {
    expect(() => createJweFetch({ key: 'short' })).toThrow(/5 bytes of UTF-8, expected 16/);
    expect(() => createJweFetch({ key: new Uint8Array(16), kid: 'k' })).toThrow(
      /kid "k".*16 raw key bytes, expected 32/,
    );
  });

  it('leaves requests to origins outside "origins" untouched, both ways', async () => {
    const scoped = createJweFetch({ key: SHARED_KEY, origins: ['https://api.example.com'] });
    const response = await scoped(`${service.url}/elsewhere?reply=plain`, {
      method: 'POST',
      body: 'plain words',
    });
    expect(service.arrivals.at(-1)).toMatchObject({ encrypted: false, raw: 'plain words' });
    expect(await response.json()).toMatchObject({ raw: 'plain words' });
    const inside = createJweFetch({ key: SHARED_KEY, origins: [service.url] });
    await inside(`${service.url}/inside`, { method: 'POST', body: '{"a":1}' });
    expect(service.arrivals.at(-1)).toMatchObject({ encrypted: true, json: { a: 1 } });
  });
});
