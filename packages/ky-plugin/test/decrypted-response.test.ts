import { describe, expect, it } from 'vitest';
import { DecryptedResponse } from '../src/decrypted-response.js';

const text = '\uFEFF{"name":"Ünïcode","n":1}';
const bytes = new TextEncoder().encode(text);
const init = {
  status: 201,
  statusText: 'Created',
  headers: { 'content-type': 'application/json', 'x-a': '1' },
};
const origin = { url: 'http://127.0.0.1:1/path', redirected: true };

/** The same body and init as a stream-backed Response, the behaviour DecryptedResponse must match. */
const pair = () => [new DecryptedResponse(bytes, init, origin), new Response(bytes, init)] as const;

async function readStream(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!stream) return '<null>';
  return new TextDecoder().decode(await new Response(stream).arrayBuffer());
}

async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

describe('DecryptedResponse', () => {
  it('is a Response with the status, headers, url and redirected it was given', () => {
    const [response] = pair();
    expect(response).toBeInstanceOf(Response);
    expect(Object.prototype.toString.call(response)).toBe('[object Response]');
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Created', true]);
    expect(response.headers.get('x-a')).toBe('1');
    expect([response.url, response.redirected]).toEqual([origin.url, true]);
    expect(response.bodyUsed).toBe(false);
  });

  it.each([
    ['text', (r: Response) => r.text()],
    ['json', (r: Response) => r.json()],
    ['arrayBuffer', async (r: Response) => new Uint8Array(await r.arrayBuffer())],
    ['blob', async (r: Response) => [(await r.blob()).type, await (await r.blob()).text()]],
    ['body', (r: Response) => readStream(r.body)],
  ])('reads through %s exactly as a stream-backed Response does', async (_name, read) => {
    const [ours, reference] = pair();
    const [a, b] = [await settle(read(ours)), await settle(read(reference))];
    expect(a).toEqual(b);
    expect(ours.bodyUsed).toBe(reference.bodyUsed);
  });

  it('reads once: a second read of any kind fails as a stream-backed Response fails', async () => {
    const reads = [
      (r: Response) => r.text(),
      (r: Response) => r.json(),
      (r: Response) => r.arrayBuffer(),
      (r: Response) => r.blob(),
      (r: Response) => readStream(r.body),
    ];
    for (const first of reads) {
      for (const second of reads) {
        const [ours, reference] = pair();
        await first(ours);
        await first(reference);
        expect(ours.bodyUsed).toBe(true);
        const [a, b] = [await settle(second(ours)), await settle(second(reference))];
        expect(a.ok).toBe(b.ok);
        if (!a.ok && !b.ok) expect(a.error).toBeInstanceOf(TypeError);
        expect(() => ours.clone()).toThrow(TypeError);
        expect(() => reference.clone()).toThrow(TypeError);
      }
    }
  });

  it('gives the caller its own copy from arrayBuffer()', async () => {
    const source = new TextEncoder().encode('abc');
    const buffer = await new DecryptedResponse(source, init, origin).arrayBuffer();
    new Uint8Array(buffer).fill(0);
    expect(new TextDecoder().decode(source)).toBe('abc');
    expect(buffer.byteLength).toBe(3);
  });

  it('clones into independent bodies, before and after the stream is taken', async () => {
    const [response] = pair();
    const copy = response.clone();
    expect(await copy.json()).toEqual(JSON.parse(text.slice(1)));
    expect([copy.url, copy.redirected, copy.status]).toEqual([origin.url, true, 201]);
    expect(response.body).not.toBeNull();
    // As with any Response, cloning a body already exposed as a stream tees it: read the new one.
    const second = response.clone();
    expect(await readStream(response.body)).toBe(await second.text());
    expect([second.url, second.redirected]).toEqual([origin.url, true]);
    expect(response.bodyUsed).toBe(true);
  });

  it('decodes a urlencoded body through formData() like a stream-backed Response', async () => {
    const form = new TextEncoder().encode('a=1&b=%C3%BC');
    const formInit = { headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const entries = (data: FormData) => {
      const out: [string, FormDataEntryValue][] = [];
      data.forEach((value, name) => {
        out.push([name, value]);
      });
      return out;
    };
    const ours = entries(await new DecryptedResponse(form, formInit, origin).formData());
    expect(ours).toEqual([
      ['a', '1'],
      ['b', 'ü'],
    ]);
    expect(ours).toEqual(entries(await new Response(form, formInit).formData()));
  });

  it('rejects json() of a body that is not JSON with a SyntaxError, as fetch does', async () => {
    const response = new DecryptedResponse(new TextEncoder().encode('not json'), init, origin);
    await expect(response.json()).rejects.toBeInstanceOf(SyntaxError);
  });
});
