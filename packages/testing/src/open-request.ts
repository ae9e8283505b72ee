import type { JweServer, Opened } from '@jwe-transport/server-core';
import { fileFromPayload, openBody } from '@jwe-transport/server-core/adapter';

/** What the mock did with one request, handed to resolvers beside the opened request. */
export interface JweRequestFacts {
  /** The body arrived as an envelope and authenticated. */
  readonly encrypted: boolean;
  /** The kid of that envelope (undefined for plain requests and envelopes without one). */
  readonly kid: string | undefined;
  /** The envelope carried a file upload (`{"file": "<base64>"}`); the request body is its bytes. */
  readonly file: boolean;
}

/** The request a resolver reads, the facts about it and the state that seals its answers. */
export interface OpenedExchange {
  readonly request: Request;
  readonly facts: JweRequestFacts;
  readonly opened: Opened;
}

/** The file of `{"<field>": "<strict base64>"}` and nothing else (the wire's file upload, spec 2.3), if that is what arrived. */
function filePayload(plaintext: Uint8Array, body: unknown, field: string): Uint8Array | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const members = Object.keys(body);
  if (members.length !== 1 || members[0] !== field) return undefined;
  try {
    return fileFromPayload(plaintext, field, false);
  } catch {
    return undefined;
  }
}

/** The envelope's length and encryption marker no longer describe the body the resolver reads. */
function openedHeaders(request: Request, length: number, contentType: string): Headers {
  const headers = new Headers(request.headers);
  headers.delete('x-encryption');
  headers.delete('content-encoding');
  headers.set('content-length', String(length));
  headers.set('content-type', contentType);
  return headers;
}

/**
 * Opens one intercepted request as our servers do: an `X-Encryption: JWE` body is decrypted and
 * parsed strictly; a file payload becomes the file's bytes. The request handed in is not read
 * (a clone is), so MSW can offer it to the next handler if this one falls through.
 * Failures are `JweHttpError`s.
 */
export async function openExchange(server: JweServer, request: Request, fileField: string | false) {
  const copy = request.clone();
  const opened = await openBody(server, {
    header: (name) => copy.headers.get(name) ?? undefined,
    body: copy.body ?? undefined,
  });
  if (opened.plaintext === undefined) {
    const facts: JweRequestFacts = { encrypted: false, kid: undefined, file: false };
    return { request, facts, opened } satisfies OpenedExchange;
  }
  const fileBytes = fileField === false ? undefined : filePayload(opened.plaintext, opened.body, fileField);
  const file = fileBytes !== undefined;
  const body = fileBytes ?? opened.plaintext;
  const contentType = file ? 'application/octet-stream' : 'application/json';
  const plaintext = new Request(request.url, {
    method: request.method,
    headers: openedHeaders(request, body.length, contentType),
    body: body as Uint8Array<ArrayBuffer>,
    signal: request.signal,
  });
  const facts: JweRequestFacts = { encrypted: true, kid: opened.info.kid, file };
  return { request: plaintext, facts, opened } satisfies OpenedExchange;
}
