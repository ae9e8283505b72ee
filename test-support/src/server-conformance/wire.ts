import { createHash } from 'node:crypto';
import { type IncomingMessage, request } from 'node:http';
import { FlattenedEncrypt, flattenedDecrypt } from 'jose';
import { answerKeepingConnection } from './answer-keeping-socket.js';

const utf8 = new TextEncoder();

/** The 32-byte key of a 16-character shared key (spec 2.4), computed without our codec. */
export const rawKey = (shared: string) => utf8.encode(shared + shared);

/** An envelope made by npm `jose`, with `kid` as a top-level member as the service sends it. */
export async function joseSeal(shared: string, plaintext: string | Uint8Array, kid?: string) {
  const bytes = typeof plaintext === 'string' ? utf8.encode(plaintext) : plaintext;
  const envelope: Record<string, unknown> = {
    ...(await new FlattenedEncrypt(bytes)
      .setProtectedHeader({ alg: 'dir', enc: 'A128CBC-HS256' })
      .encrypt(rawKey(shared))),
  };
  if (kid !== undefined) envelope.kid = kid;
  return envelope;
}

/** Opens an answer with npm `jose`: proof that what we sealed is standard. */
export async function joseOpenJson(shared: string, envelope: unknown): Promise<unknown> {
  const { plaintext } = await flattenedDecrypt(
    envelope as Parameters<typeof flattenedDecrypt>[0],
    rawKey(shared),
    {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A128CBC-HS256'],
    },
  );
  return JSON.parse(new TextDecoder().decode(plaintext));
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export function postEncrypted(url: string, envelope: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-encryption': 'JWE', ...headers },
    body: typeof envelope === 'string' ? envelope : JSON.stringify(envelope),
  });
}

export interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

async function readAnswer(response: IncomingMessage): Promise<RawAnswer> {
  let text = '';
  for await (const chunk of response) text += chunk;
  return { status: response.statusCode ?? 0, headers: response.headers, text };
}

/**
 * A POST over node:http, which streams with backpressure (fetch keeps a streamed body in memory)
 * and sends repeated headers as separate lines. `write` feeds the body; the answer may arrive
 * before it ends, and `answeredEarly` says whether it did. A server may answer early and close the
 * connection: the answer it sent is read and reported, and the failed rest of the upload is not.
 */
export function rawPost(
  url: string,
  headers: Record<string, string | string[]>,
  write: (body: NodeJS.WritableStream, answered: () => boolean) => Promise<void>,
  { end = true }: { end?: boolean } = {},
): Promise<RawAnswer & { answeredEarly: boolean }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let ended = false;
    const req = request(url, { method: 'POST', headers, createConnection: answerKeepingConnection });
    req.on('response', (response) => {
      answered = true;
      const early = !ended;
      readAnswer(response).then((answer) => resolve({ ...answer, answeredEarly: early }), reject);
    });
    // A server that answers early and closes resets the rest of the upload: the answer counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    write(req, () => answered).then(
      () => {
        if (!end) return;
        ended = true;
        if (!answered && !req.destroyed) req.end();
      },
      (error: unknown) => {
        if (!answered) reject(error);
      },
    );
  });
}

/** Writes with backpressure; stops quietly once the server has answered or the socket is gone. */
export async function writeAll(
  body: NodeJS.WritableStream,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  answered: () => boolean,
) {
  for await (const chunk of chunks) {
    if (answered() || (body as { destroyed?: boolean }).destroyed) return;
    if (!body.write(chunk)) {
      await new Promise<void>((resolve) => {
        const go = () => {
          body.off('drain', go).off('close', go);
          resolve();
        };
        body.once('drain', go).once('close', go);
      });
    }
  }
}

/** A POST of a whole body with its Content-Length, over the same client as `rawPost`. */
export function postWhole(url: string, body: string, headers: Record<string, string> = {}) {
  const bytes = Buffer.from(body);
  return rawPost(
    url,
    {
      'content-type': 'application/json',
      'x-encryption': 'JWE',
      'content-length': String(bytes.length),
      ...headers,
    },
    async (request, answered) => writeAll(request, [bytes], answered),
  );
}
