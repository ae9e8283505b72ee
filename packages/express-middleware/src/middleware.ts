import { decryptDetailed } from '@jwe-transport/codec';
import { kidNotingResolver, traceOpen } from '@jwe-transport/codec/diagnostics';
import { isJsonType, recordingResolver } from '@jwe-transport/server-core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { hasBody, readBody } from './body-stream.js';
import { assertUtf8, isEncryptedRequest } from './content-type.js';
import { encryptionRequired, isJweHttpError, mountOrder, toHttpError } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { type JweOptions, type ResolvedOptions, resolveOptions } from './options.js';
import {
  bodyAlreadyRead,
  markBodyRead,
  recordEncryptedRequest,
  recordPlainRequest,
} from './request-state.js';

export const DEFAULT_JSON_LIMIT = '100kb';

async function handleEncrypted(req: Request, res: Response, options: ResolvedOptions): Promise<void> {
  if (bodyAlreadyRead(req)) throw mountOrder('jwe()');
  const envelope = await readBody(req, options.limit, options.timeout);
  const recorder = recordingResolver(options.resolver);
  // `jwe-transport:open`, until this adapter opens envelopes through server-core's JweServer.
  const result = await traceOpen(
    'server',
    envelope,
    (trace) =>
      decryptDetailed(envelope, kidNotingResolver(trace, recorder.resolve), {
        missingProtected: options.missingProtected,
      }),
    (opened) => ({ kid: opened.kid, plaintextBytes: opened.plaintext.byteLength }),
  );
  // Authenticated: from here on even the error answers go out encrypted.
  recordEncryptedRequest(req, res, options, result, recorder);
  markBodyRead(
    req,
    parseJsonBody(result.plaintext, 'The decrypted body', {
      strict: options.strict,
      members: options.strictJson,
    }),
  );
}

async function handlePlain(req: Request, res: Response, options: ResolvedOptions): Promise<void> {
  const withBody = hasBody(req) && !bodyAlreadyRead(req);
  if (options.requireEncryption && (withBody || (bodyAlreadyRead(req) && req.body !== undefined))) {
    throw encryptionRequired();
  }
  await recordPlainRequest(req, res, options);
  const contentType = req.headers['content-type'];
  if (withBody && options.plainJson === 'parse' && isJsonType(contentType)) {
    assertUtf8(contentType);
    const bytes = await readBody(req, options.limit, options.timeout);
    markBodyRead(req, parseJsonBody(bytes, 'The request body', { strict: options.strict, members: false }));
  }
}

/**
 * Runs one request through `handle` and hands failures to Express as HTTP errors. A body left
 * half-read (a refused upload) would otherwise keep the connection busy, so it is closed after the
 * answer. `explain` may add to an error what only the caller knows (see `jwe()`'s upload hint).
 */
export function runStep(
  handle: (req: Request, res: Response) => Promise<void>,
  explain: (error: unknown) => unknown = (error) => error,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    handle(req, res).then(
      () => next(),
      (error: unknown) => {
        if (hasBody(req) && !req.readableEnded && !res.headersSent) res.setHeader('Connection', 'close');
        next(explain(toHttpError(error)));
      },
    );
  };
}

/** What `jwe()` knows about the upload handlers made from it with `.upload()`. */
export interface UploadRoutes {
  /** The largest `limit` among them, in bytes (0 while there are none). */
  largestLimit: number;
}

/**
 * The middleware: decrypts `X-Encryption: JWE` bodies into `req.body`, parses plain JSON (unless
 * `plainJson: 'ignore'`), records what it did on `req.jwe` and encrypts the JSON answers of
 * encrypted requests with the same key and kid.
 */
export function jwe(options: JweOptions, uploads: UploadRoutes = { largestLimit: 0 }): RequestHandler {
  const resolved = resolveOptions(options, DEFAULT_JSON_LIMIT);
  // An upload route behind this app-level jwe() gets jwe()'s limit, not its own: say so rather
  // than answer a 413 that names a limit the route never set.
  const explain = (error: unknown) => {
    if (
      isJweHttpError(error) &&
      error.code === 'ERR_JWE_TOO_LARGE' &&
      uploads.largestLimit > resolved.limit
    ) {
      error.message +=
        ` (jwe() read this body before any upload() handler; its limit is ${resolved.limit} bytes. ` +
        'Declare upload routes before app.use(jwe()), or mount jwe() on the JSON routes only.)';
    }
    return error;
  };
  return runStep(async (req, res) => {
    if (req.jwe) return; // Already handled by an earlier jwe() on this request.
    if (resolved.responses === 'auto') res.vary('X-Encryption');
    if (isEncryptedRequest(req) && (hasBody(req) || bodyAlreadyRead(req))) {
      await handleEncrypted(req, res, resolved);
    } else {
      await handlePlain(req, res, resolved);
    }
  }, explain);
}
