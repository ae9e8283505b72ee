import { encryptSync } from '@jwe-transport/codec';
import {
  carriesBody,
  ENCRYPT_FAILED_BODY,
  envelopeJson,
  isJsonType,
  type ResponseKey,
} from '@jwe-transport/server-core/adapter';
import type { Response } from 'express';

type Send = (this: Response, body?: unknown) => Response;

/**
 * What each patched response needs: its key (a second jwe() on the same request may update it)
 * and Express's own `send`. Kept beside the response rather than on it: Express responses have a
 * swapped prototype, and every new property on one costs a slow store.
 */
const patched = new WeakMap<Response, { key: ResponseKey; send: Send }>();

/**
 * `res.send` of every patched response (one function for all of them, so patching allocates
 * nothing per request). Objects reach it as strings: `send(object)` calls `json`, which
 * stringifies and calls `send` again with a JSON content type.
 */
const encryptingSend: Send = function (this: Response, body?: unknown) {
  const state = patched.get(this)!;
  const isText = typeof body === 'string';
  if (
    !(isText || body instanceof Uint8Array) ||
    this.headersSent ||
    !carriesBody(this.statusCode) ||
    !isJsonType(this.get('Content-Type'))
  ) {
    return state.send.call(this, body);
  }
  const options = state.key.kid === undefined ? {} : { kid: state.key.kid };
  // Sealing synchronously writes the answer before send() returns, as Express's own send does.
  let envelope: string;
  try {
    envelope = envelopeJson(encryptSync(body as string | Uint8Array, state.key.key, options));
  } catch {
    // Never fall back to the plaintext: answer a generic error instead.
    this.statusCode = 500;
    writeAnswer(this, undefined, ENCRYPT_FAILED_BODY);
    return this;
  }
  writeAnswer(this, 'JWE', envelope);
  return this;
};

/**
 * Makes `res.json()` and `res.send()` of a JSON body go out as an envelope under `key`, with
 * `X-Encryption: JWE` and its `Content-Length`. Bodies written with `res.write`/`res.end`/
 * `res.sendFile` are not JSON answers and are left alone.
 */
export function encryptJsonResponses(res: Response, key: ResponseKey): void {
  const existing = patched.get(res);
  if (existing) {
    existing.key = key;
    return;
  }
  patched.set(res, { key, send: res.send as Send });
  res.send = encryptingSend as Response['send'];
}

/**
 * Writes the envelope directly rather than through Express's `send`: a fresh IV makes every
 * envelope unique, so the ETag Express would hash the body for could never match a later request.
 */
function writeAnswer(res: Response, encryption: string | undefined, text: string): void {
  // A second answer to the same request (a handler bug) is dropped rather than crashing the process.
  if (res.headersSent) return;
  try {
    if (encryption) res.setHeader('X-Encryption', encryption);
    else res.removeHeader('X-Encryption');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text, 'utf8'));
    res.removeHeader('ETag');
    if (res.req.method === 'HEAD') res.end();
    else res.end(text, 'utf8');
  } catch {
    // The handler only asked for JSON; a write that fails (a socket gone bad) drops the connection.
    res.destroy();
  }
}
