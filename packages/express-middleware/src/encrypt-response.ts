import type { ServerResponse } from 'node:http';
import { encrypt } from '@jwe-transport/codec';
import type { Response } from 'express';
import { isJsonType } from './content-type.js';
import type { ResponseKey } from './request-info.js';

const states = new WeakMap<ServerResponse, { key: ResponseKey }>();

const ENCRYPT_FAILED_BODY = JSON.stringify({
  error: {
    type: 'jwe.encrypt.failed',
    code: 'ERR_JWE_ENCRYPT_FAILED',
    message: 'The server could not encrypt its answer.',
  },
});

function carriesBody(status: number): boolean {
  return status !== 204 && status !== 304 && !(status >= 100 && status < 200);
}

type Send = (this: Response, body?: unknown) => Response;

/**
 * Makes `res.json()` and `res.send()` of a JSON body go out as an envelope under `key`, with
 * `X-Encryption: JWE`. Express's own `send` still writes the answer, so `Content-Length`, ETag and
 * HEAD handling stay Express's. Objects reach us as strings: `send(object)` calls `json`, which
 * stringifies and calls `send` again with a JSON content type.
 *
 * Encryption is asynchronous, so the body leaves a moment after the call returns. Bodies written
 * with `res.write`/`res.end`/`res.sendFile` are not JSON answers and are left alone.
 */
export function encryptJsonResponses(res: Response, key: ResponseKey): void {
  const existing = states.get(res);
  if (existing) {
    existing.key = key;
    return;
  }
  const state = { key };
  states.set(res, state);
  const send = res.send as Send;
  const encryptingSend: Send = function (this: Response, body?: unknown) {
    const bytes =
      typeof body === 'string' ? Buffer.from(body, 'utf8') : body instanceof Uint8Array ? body : undefined;
    if (
      !bytes ||
      this.headersSent ||
      !carriesBody(this.statusCode) ||
      !isJsonType(this.get('Content-Type'))
    ) {
      return send.call(this, body);
    }
    const options = state.key.kid === undefined ? {} : { kid: state.key.kid };
    encrypt(bytes, state.key.key, options).then(
      (envelope) => finish(this, 'JWE', JSON.stringify(envelope)),
      () => {
        // Never fall back to the plaintext: answer a generic error instead.
        this.status(500);
        finish(this, undefined, ENCRYPT_FAILED_BODY);
      },
    );
    return this;
  };
  res.send = encryptingSend as Response['send'];

  function finish(target: Response, encryption: string | undefined, text: string): void {
    // A second answer to the same request (a handler bug) is dropped rather than crashing the process.
    if (target.headersSent) return;
    try {
      if (encryption) target.setHeader('X-Encryption', encryption);
      else target.removeHeader('X-Encryption');
      target.setHeader('Content-Type', 'application/json; charset=utf-8');
      send.call(target, text);
    } catch {
      // Outside the handler's call stack nobody could catch this; drop the connection instead.
      target.destroy();
    }
  }
}
