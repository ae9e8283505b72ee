import type { Dispatcher } from 'undici';

type HeadersInput = Dispatcher.DispatchOptions['headers'];

const text = (value: unknown) =>
  typeof value === 'string' ? value : Buffer.from(value as Uint8Array).toString('latin1');

/** undici's dispatch headers (a flat `[name, value, ...]` array, an object, or pairs) as fetch `Headers`. */
export function toHeaders(input: HeadersInput): Headers {
  const headers = new Headers();
  if (input === null || input === undefined) return headers;
  if (Array.isArray(input)) {
    for (let i = 0; i + 1 < input.length; i += 2) headers.append(text(input[i]), text(input[i + 1]));
    return headers;
  }
  if (typeof (input as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const [name, value] of input as Iterable<[string, string | string[] | undefined]>) {
      for (const item of Array.isArray(value) ? value : [value])
        if (item !== undefined) headers.append(name, item);
    }
    return headers;
  }
  for (const [name, value] of Object.entries(input as Record<string, string | string[] | undefined>)) {
    for (const item of Array.isArray(value) ? value : [value])
      if (item !== undefined) headers.append(name, item);
  }
  return headers;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<Uint8Array | string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function isFormDataLike(value: unknown): value is FormData {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'FormData'
  );
}

/**
 * The body undici is about to send, read whole: a mock answers from memory, and the handlers
 * read the request as a fetch `Request`. A FormData is encoded as fetch would, with its boundary.
 */
export async function readDispatchBody(
  body: unknown,
  headers: Headers,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return new Uint8Array(body);
  if (body instanceof Blob) return new Uint8Array(await body.arrayBuffer());
  if (isFormDataLike(body)) {
    const encoded = new Response(body as FormData);
    headers.set('content-type', encoded.headers.get('content-type')!);
    return new Uint8Array(await encoded.arrayBuffer());
  }
  if (isAsyncIterable(body)) {
    const chunks: Buffer[] = [];
    for await (const chunk of body)
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
    return new Uint8Array(Buffer.concat(chunks));
  }
  throw new TypeError(`createJweMockAgent: cannot read a request body of type ${typeof body}.`);
}

/** The fetch `Request` MSW's handlers match and read, for one undici dispatch. */
export async function toRequest(
  opts: Dispatcher.DispatchOptions,
): Promise<{ request: Request; body?: Uint8Array }> {
  const headers = toHeaders(opts.headers);
  const body = await readDispatchBody(opts.body, headers);
  const method = (opts.method ?? 'GET').toUpperCase();
  const url = new URL(opts.path, String(opts.origin)).href;
  const carries = body !== undefined && method !== 'GET' && method !== 'HEAD';
  const request = new Request(url, { method, headers, ...(carries ? { body } : {}) });
  return body === undefined ? { request } : { request, body };
}

/** A fetch `Response`'s headers as the object MockAgent's `reply` takes (repeated ones as arrays). */
export function replyHeaders(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}
