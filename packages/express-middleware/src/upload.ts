import { sniffMimeType } from '@jwe-transport/server-core';
import { fileFromPayload, hasBody, isEncryptedHeader, mountOrder } from '@jwe-transport/server-core/adapter';
import { notAnUpload, receiveUploadFrom, resolveUpload } from '@jwe-transport/server-core/adapter/node';
import { DEFAULT_UPLOAD_LIMIT, type UploadOptions } from '@jwe-transport/server-core/node';
import type { Request, RequestHandler, Response } from 'express';
import { idleWatched } from './body.js';
import { type JweFile, setUploadedFile } from './file.js';
import { runStep } from './middleware.js';
import { type ExpressSettings, type JweExpressOptions, resolveOptions } from './options.js';
import { bodyAlreadyRead, markBodyRead, recordOpened } from './request-state.js';

export { DEFAULT_UPLOAD_LIMIT };

export interface JweUploadOptions extends Omit<JweExpressOptions, 'plainJson'>, UploadOptions {}

/** A small envelope an app-level jwe() already opened: the file is in its decrypted body. */
function fileFromOpenedBody(req: Request, settings: ExpressSettings, fieldName: string): JweFile {
  const { server } = settings;
  // An `upload.invalid` when the payload is not {"<field>": "<base64>"}.
  const payload = new TextEncoder().encode(JSON.stringify(req.body ?? null));
  const bytes = fileFromPayload(payload, fieldName, server.options.strictJson);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { fieldname: fieldName, mimetype: sniffMimeType(buffer), size: buffer.length, buffer };
}

/**
 * A per-route handler for file endpoints (spec 4.3), on the server core's one upload path. It
 * accepts a plain `multipart/form-data` upload with one file in `fieldName`, or an encrypted
 * `{"file": "<base64>"}` envelope, and gives the next handler the same multer-style `req.file`
 * for both. With `dest`, files are 0600 in a private folder the handler makes inside `dest`.
 * Mount it before any app-level body parser sees the route, or with a `limit` that suits files.
 */
export function jweUpload(options: JweUploadOptions): RequestHandler {
  const { dest, limit, maxSpill, fieldName, ...rest } = options;
  const upload = resolveUpload({
    ...(dest === undefined ? {} : { dest }),
    ...(limit === undefined ? {} : { limit }),
    ...(maxSpill === undefined ? {} : { maxSpill }),
    ...(fieldName === undefined ? {} : { fieldName }),
  });
  const settings = resolveOptions(
    { ...rest, limit: upload.limit, plainJson: 'ignore' } as JweExpressOptions,
    DEFAULT_UPLOAD_LIMIT,
  );
  const { server } = settings;
  return runStep(settings, async (req: Request, res: Response) => {
    if (req.file) return;
    if (server.variesByEncryption) res.vary('X-Encryption');
    if (bodyAlreadyRead(req)) {
      // An app-level jwe() took the (small) envelope apart already; anything else read it blind.
      if (!isEncryptedHeader(req.headers['x-encryption'])) throw notAnUpload(upload.fieldName);
      if (!req.jwe?.encrypted) throw mountOrder('upload()');
      setUploadedFile(req, fileFromOpenedBody(req, settings, upload.fieldName));
      return;
    }
    const received = await receiveUploadFrom(
      server,
      {
        headers: req.headers,
        body: hasBody(req) ? idleWatched(req, settings.timeout) : undefined,
      },
      upload,
    );
    if (!req.jwe?.encrypted || received.info.encrypted) recordOpened(req, res, settings, received);
    setUploadedFile(req, received.file);
    markBodyRead(req, received.fields);
  });
}
