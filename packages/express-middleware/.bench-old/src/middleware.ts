import { decryptDetailed } from '@jwe-transport/codec';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { hasBody, readBody } from './body-stream.js';
import { isEncryptedRequest, isJsonType } from './content-type.js';
import { encryptionRequired, parseFailed, toHttpError } from './errors.js';
import { recordingResolver } from './keys.js';
import { type JweOptions, type ResolvedOptions, resolveOptions } from './options.js';
import {
  bodyAlreadyRead,
  markBodyRead,
  recordEncryptedRequest,
  recordPlainRequest,
} from './request-state.js';

export const DEFAULT_JSON_LIMIT = '100kb';

function parseJson(bytes: Uint8Array, what: string): unknown {
  if (bytes.length === 0) return {};
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw parseFailed(what);
  }
}

async function handleEncrypted(req: Request, res: Response, options: ResolvedOptions): Promise<void> {
  // express.json() mounted first has already parsed the envelope; decrypt what it read.
  const input = bodyAlreadyRead(req) ? req.body : await readBody(req, options.limit);
  const recorder = recordingResolver(options.resolver);
  const result = await decryptDetailed(input, recorder.resolve, {
    missingProtected: options.missingProtected,
  });
  // Authenticated: from here on even the error answers go out encrypted.
  recordEncryptedRequest(req, res, options, result, recorder);
  markBodyRead(req, parseJson(result.plaintext, 'The decrypted body'));
}

async function handlePlain(req: Request, res: Response, options: ResolvedOptions): Promise<void> {
  const withBody = hasBody(req) && !bodyAlreadyRead(req);
  if (options.requireEncryption && (withBody || (bodyAlreadyRead(req) && req.body !== undefined))) {
    throw encryptionRequired();
  }
  await recordPlainRequest(req, res, options);
  if (withBody && options.plainJson === 'parse' && isJsonType(req.headers['content-type'])) {
    markBodyRead(req, parseJson(await readBody(req, options.limit), 'The request body'));
  }
}

/**
 * Runs one request through `handle` and hands failures to Express as HTTP errors. A body left
 * half-read (a refused upload) would otherwise keep the connection busy, so it is closed after the answer.
 */
export function runStep(
  handle: (req: Request, res: Response) => Promise<void>,
): (req: Request, res: Response, next: NextFunction) => void {
  return (req, res, next) => {
    handle(req, res).then(
      () => next(),
      (error: unknown) => {
        if (hasBody(req) && !req.readableEnded && !res.headersSent) res.setHeader('Connection', 'close');
        next(toHttpError(error));
      },
    );
  };
}

/**
 * The middleware: decrypts `X-Encryption: JWE` bodies into `req.body`, parses plain JSON (unless
 * `plainJson: 'ignore'`), records what it did on `req.jwe` and encrypts the JSON answers of
 * encrypted requests with the same key and kid.
 */
export function jwe(options: JweOptions): RequestHandler {
  const resolved = resolveOptions(options, DEFAULT_JSON_LIMIT);
  return runStep(async (req, res) => {
    if (req.jwe) return; // Already handled by an earlier jwe() on this request.
    if (resolved.responses === 'auto') res.vary('X-Encryption');
    if (isEncryptedRequest(req) && (hasBody(req) || bodyAlreadyRead(req))) {
      await handleEncrypted(req, res, resolved);
    } else {
      await handlePlain(req, res, resolved);
    }
  });
}
