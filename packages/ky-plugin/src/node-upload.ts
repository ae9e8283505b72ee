/*
 * Streamed uploads on Node.js go through node:http(s) rather than the global fetch: Node's fetch
 * (undici, measured on Node 20 and 24) keeps every chunk of a streamed request body reachable
 * until the request completes, so a 200 MiB upload held 200 MiB. node:http applies backpressure
 * and lets each chunk go once it is written.
 */

export interface StreamedUpload {
  method: string;
  headers: Headers;
  body: ReadableStream<Uint8Array>;
  signal?: AbortSignal | null;
}

/** The init for sending a streamed upload through a fetch implementation. */
export function streamedFetchInit(upload: StreamedUpload): RequestInit {
  return {
    method: upload.method,
    headers: upload.headers,
    body: upload.body,
    signal: upload.signal ?? null,
    // Required by fetch for a stream body; such a body can be sent once only.
    duplex: 'half',
  } as RequestInit;
}

/** Statuses whose responses have no body (a `Response` refuses one for them). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

export function isNodeRuntime(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}

function plainHeaders(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name] = value;
  });
  // node:http does not decompress; ask for an identity response so the body stays readable.
  result['accept-encoding'] = 'identity';
  return result;
}

/** Sends `upload` to `url` with node:http(s) and answers with a web `Response`, like fetch would. */
export async function nodeStreamingUpload(url: string, upload: StreamedUpload): Promise<Response> {
  const target = new URL(url);
  const { request } = await (target.protocol === 'https:' ? import('node:https') : import('node:http'));
  const { Readable } = await import('node:stream');
  return new Promise<Response>((resolve, reject) => {
    const source = Readable.fromWeb(upload.body as import('node:stream/web').ReadableStream<Uint8Array>);
    const outgoing = request(
      target,
      {
        method: upload.method,
        headers: plainHeaders(upload.headers),
        ...(upload.signal ? { signal: upload.signal } : {}),
      },
      (incoming) => {
        const headers = new Headers();
        for (let at = 0; at + 1 < incoming.rawHeaders.length; at += 2) {
          headers.append(incoming.rawHeaders[at]!, incoming.rawHeaders[at + 1]!);
        }
        const status = incoming.statusCode ?? 0;
        const empty = NULL_BODY_STATUSES.has(status) || upload.method.toUpperCase() === 'HEAD';
        if (empty) incoming.resume();
        const response = new Response(
          empty ? null : (Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>),
          { status, statusText: incoming.statusMessage ?? '', headers },
        );
        Object.defineProperty(response, 'url', { value: url });
        resolve(response);
      },
    );
    outgoing.on('error', (error) => {
      source.destroy();
      reject(error);
    });
    source.on('error', (error) => outgoing.destroy(error));
    source.pipe(outgoing);
  });
}
