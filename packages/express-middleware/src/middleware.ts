import { isJweHttpError, JweHttpError } from '@jwe-transport/server-core';
import {
  hasBody,
  isEncryptedHeader,
  mountOrder,
  nodeBodyRequest,
  openBody,
} from '@jwe-transport/server-core/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { idleWatch } from './body.js';
import { type ExpressSettings, type JweExpressOptions, resolveOptions } from './options.js';
import { bodyAlreadyRead, markBodyRead, recordOpened, setRefusalReporting } from './request-state.js';

export const DEFAULT_JSON_LIMIT = '100kb';

/** Opens the request through the engine and records the result on `req.jwe` and `req.body`. */
async function open(req: Request, res: Response, settings: ExpressSettings): Promise<void> {
  const { server } = settings;
  const encrypted = isEncryptedHeader(req.headers['x-encryption']);
  if (bodyAlreadyRead(req)) {
    // Decrypting another parser's result would skip the envelope's strict checks: a server error.
    if (encrypted) throw mountOrder('jwe()');
    recordOpened(req, res, settings, await server.openPlain(req.body !== undefined));
    return;
  }
  const request = nodeBodyRequest(req);
  const opened = await openBody(
    server,
    request.body !== undefined && settings.timeout > 0
      ? { ...request, watch: idleWatch(req, settings.timeout) }
      : request,
    settings.plainJson === 'parse',
  );
  recordOpened(req, res, settings, opened);
  if (opened.plaintext !== undefined) markBodyRead(req, opened.body);
}

/**
 * Runs one request through `handle` and hands failures to Express (to `jweErrorHandler`, which
 * answers and reports them with this handler's reporting). A body left half-read (a refused
 * upload) would otherwise keep the connection busy, so it is closed after the answer. `explain`
 * may add to an error what only the caller knows (see `jwe()`'s upload hint).
 */
export function runStep(
  settings: ExpressSettings,
  handle: (req: Request, res: Response) => Promise<void>,
  explain: (error: unknown) => unknown = (error) => error,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    handle(req, res).then(
      () => next(),
      (error: unknown) => {
        if (hasBody(req) && !req.readableEnded && !res.headersSent) res.setHeader('Connection', 'close');
        const failure = explain(error);
        // Raised after an upload's envelope authenticated: its answer is sealed like any other.
        const opened = JweHttpError.openedOf(failure);
        if (opened && !req.jwe?.encrypted) recordOpened(req, res, settings, opened);
        setRefusalReporting(req, settings.reporting);
        next(failure);
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
 * `plainJson: 'ignore'`) with the same strict parser, records what it did on `req.jwe` and
 * encrypts the JSON answers of encrypted requests with the same key and kid.
 */
export function jwe(options: JweExpressOptions, uploads: UploadRoutes = { largestLimit: 0 }): RequestHandler {
  const settings = resolveOptions(options, DEFAULT_JSON_LIMIT);
  const limit = settings.server.options.limit;
  // An upload route behind this app-level jwe() gets jwe()'s limit, not its own: say so rather
  // than answer a 413 that names a limit the route never set.
  const explain = (error: unknown) => {
    if (isJweHttpError(error) && error.code === 'ERR_JWE_TOO_LARGE' && uploads.largestLimit > limit) {
      error.message +=
        ` (jwe() read this body before any upload() handler; its limit is ${limit} bytes. ` +
        'Declare upload routes before app.use(jwe()), or mount jwe() on the JSON routes only.)';
    }
    return error;
  };
  return runStep(
    settings,
    async (req, res) => {
      if (req.jwe) return; // Already handled by an earlier jwe() on this request.
      if (settings.server.variesByEncryption) res.vary('X-Encryption');
      await open(req, res, settings);
    },
    explain,
  );
}
