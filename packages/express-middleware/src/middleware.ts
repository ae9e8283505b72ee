import {
  charsetUnsupported,
  encryptionRequired,
  isEncryptedHeader,
  isJweHttpError,
  isPlainJson,
  mountOrder,
  noteKid,
  openedOfError,
  openPlainJson,
  parseOpenedPlaintext,
  toHttpError,
} from '@jwe-transport/server-core/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { hasBody, readBody } from './body.js';
import { type ExpressSettings, type JweOptions, resolveOptions } from './options.js';
import { refusalReporting } from './refusals.js';
import { bodyAlreadyRead, markBodyRead, recordOpened } from './request-state.js';

export const DEFAULT_JSON_LIMIT = '100kb';

async function handleEncrypted(req: Request, res: Response, settings: ExpressSettings): Promise<void> {
  if (bodyAlreadyRead(req)) throw mountOrder('jwe()');
  const { server } = settings;
  const opened = await server.openEnvelope(await readBody(req, server.options.limit, settings.timeout));
  // Authenticated: from here on even the error answers go out encrypted.
  recordOpened(req, res, opened);
  markBodyRead(req, parseOpenedPlaintext(server, opened).value);
}

/** Refuses a JSON body declared in another charset than UTF-8 (body-parser answers 415 too). */
function assertUtf8(contentType: string | undefined): void {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '');
  const charset = match?.[1]?.toLowerCase();
  if (match && charset !== 'utf-8' && charset !== 'utf8') throw charsetUnsupported(match[1]!);
}

async function handlePlain(req: Request, res: Response, settings: ExpressSettings): Promise<void> {
  const { server } = settings;
  const withBody = hasBody(req) && !bodyAlreadyRead(req);
  if (server.options.requireEncryption && bodyAlreadyRead(req) && req.body !== undefined) {
    throw encryptionRequired();
  }
  const opened = await server.openPlain(withBody);
  recordOpened(req, res, opened);
  const contentType = req.headers['content-type'];
  if (withBody && settings.plainJson === 'parse' && isPlainJson(contentType, req.headers['content-length'])) {
    assertUtf8(contentType);
    const parsed = openPlainJson(server, opened, await readBody(req, server.options.limit, settings.timeout));
    if (parsed.plaintext) markBodyRead(req, parsed.body);
  }
}

/**
 * Runs one request through `handle` and hands failures to Express as HTTP errors (to
 * `jweErrorHandler`, which answers and reports them). A body left half-read (a refused upload)
 * would otherwise keep the connection busy, so it is closed after the answer. `explain` may add
 * to an error what only the caller knows (see `jwe()`'s upload hint).
 */
export function runStep(
  settings: ExpressSettings,
  handle: (req: Request, res: Response) => Promise<void>,
  explain: (error: unknown) => unknown = (error) => error,
): (req: Request, res: Response, next: NextFunction) => void {
  const reporting = refusalReporting(settings);
  return (req, res, next) => {
    handle(req, res).then(
      () => next(),
      (error: unknown) => {
        if (hasBody(req) && !req.readableEnded && !res.headersSent) res.setHeader('Connection', 'close');
        const failure = explain(toHttpError(error));
        if (req.jwe?.encrypted) noteKid(failure, req.jwe.kid);
        // Raised after an upload's envelope authenticated: its answer is sealed like any other.
        const opened = openedOfError(failure);
        if (opened && !req.jwe?.encrypted) recordOpened(req, res, opened);
        reporting.attach(failure);
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
export function jwe(options: JweOptions, uploads: UploadRoutes = { largestLimit: 0 }): RequestHandler {
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
      if (isEncryptedHeader(req.headers['x-encryption']) && (hasBody(req) || bodyAlreadyRead(req))) {
        await handleEncrypted(req, res, settings);
      } else {
        await handlePlain(req, res, settings);
      }
    },
    explain,
  );
}
