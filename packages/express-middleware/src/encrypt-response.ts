import type { JweAnswer, Opened } from '@jwe-transport/server-core';
import { reportSealFailure } from '@jwe-transport/server-core/adapter';
import type { Response } from 'express';
import type { ExpressSettings } from './options.js';

type Send = (this: Response, body?: unknown) => Response;

/**
 * What each patched response needs: the handler's settings (the engine, where failures are
 * reported), the request's state (a second jwe() on the same request may update it) and Express's
 * own `send`. Kept beside the response rather than on it: Express responses have a swapped
 * prototype, and every new property on one costs a slow store.
 */
const patched = new WeakMap<Response, { settings: ExpressSettings; opened: Opened; send: Send }>();

/**
 * `res.send` of every patched response (one function for all of them, so patching allocates
 * nothing per request). Objects reach it as strings: `send(object)` calls `json`, which
 * stringifies and calls `send` again with a JSON content type. The engine decides; this only writes.
 */
const encryptingSend: Send = function (this: Response, body?: unknown) {
  const state = patched.get(this)!;
  if (!(typeof body === 'string' || body instanceof Uint8Array) || this.headersSent) {
    return state.send.call(this, body);
  }
  const answer = state.settings.server.answer(state.opened, this.statusCode, this.get('Content-Type'), body);
  if (answer instanceof Promise) {
    // Only a crypto back end without synchronous encryption gets here (never node:crypto).
    answer.then((decided) => writeAnswer(this, decided, state, body));
    return this;
  }
  return writeAnswer(this, answer, state, body);
};

/**
 * Makes `res.json()` and `res.send()` of a JSON body go out as the engine decides: an envelope
 * under the request's key, with `X-Encryption: JWE` and its `Content-Length`. Bodies written with
 * `res.write`/`res.end`/`res.sendFile` are not JSON answers and are left alone.
 */
export function encryptJsonResponses(res: Response, settings: ExpressSettings, opened: Opened): void {
  // The key alone, not the opened body's bytes and text: this lives as long as the response, and
  // under load what an Express response holds survives young-generation collections.
  const state: Opened = { info: opened.info, responseKey: opened.responseKey };
  const existing = patched.get(res);
  if (existing) {
    existing.opened = state;
    return;
  }
  patched.set(res, { settings, opened: state, send: res.send as Send });
  res.send = encryptingSend as Response['send'];
}

/**
 * Writes the engine's decision. A sealed body is written directly rather than through Express's
 * `send`: a fresh IV makes every envelope unique, so the ETag Express would hash the body for
 * could never match a later request. An answer that could not be sealed is reported first.
 */
function writeAnswer(
  res: Response,
  answer: JweAnswer,
  { settings, send }: { settings: ExpressSettings; send: Send },
  original: unknown,
): Response {
  if (answer.body === undefined) return send.call(res, original);
  if (answer.failure) {
    reportSealFailure(answer, settings.reporting, { method: res.req.method, path: res.req.originalUrl });
  }
  // A second answer to the same request (a handler bug) is dropped rather than crashing the process.
  if (res.headersSent) return res;
  try {
    res.statusCode = answer.status;
    // Node's removeHeader() costs more than the check that skips it, and most answers have none of these.
    for (const name of answer.remove) if (res.hasHeader(name)) res.removeHeader(name);
    for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
    res.setHeader('Content-Length', Buffer.byteLength(answer.body, 'utf8'));
    if (res.req.method === 'HEAD') res.end();
    else res.end(answer.body, 'utf8');
  } catch {
    // The handler only asked for JSON; a write that fails (a socket gone bad) drops the connection.
    res.destroy();
  }
  return res;
}
