/**
 * `@jwe-transport/express-middleware`: Express 4 and 5 middleware for JWE (dir + A128CBC-HS256)
 * encrypted request bodies, encrypted JSON answers and encrypted or multipart file uploads, a
 * thin adapter on `@jwe-transport/server-core`.
 * @packageDocumentation
 */

import { parseLimit } from '@jwe-transport/server-core/adapter';
import type { RequestHandler } from 'express';
import { jwe as jweMiddleware, type UploadRoutes } from './middleware.js';
import type { JweExpressOptions } from './options.js';
import { DEFAULT_UPLOAD_LIMIT, type JweUploadOptions, jweUpload } from './upload.js';

// Re-exported on purpose (the README says so): the error class and the types of the options,
// so that an Express application needs no second import.
export {
  type ErrorBody,
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
  type JweLogger,
  type KeysOption,
  type Refusal,
  type RejectListener,
  type SizeLimit,
} from '@jwe-transport/server-core';
export {
  type JweErrorHandlerOptions,
  jweErrorHandler,
  type ServerErrorListener,
} from './error-handler.js';
export { type JweFile, uploadedFile } from './file.js';
export type { JweExpressOptions, ResponseEncryption } from './options.js';
export type { JweRequestInfo } from './request-info.js';
export { type JweUploadOptions, jweUpload };

/** The middleware, with `.upload()` for file routes that share its keys and settings. */
export interface JweMiddleware extends RequestHandler {
  /** A per-route upload handler with these options plus upload-specific ones (`limit` defaults to `'10mb'`). */
  upload(
    options?: Omit<JweUploadOptions, keyof JweExpressOptions> & Partial<JweExpressOptions>,
  ): RequestHandler;
}

/**
 * `app.use(jwe({ keys: { 'kid-1': sharedKey } }))`: encrypted bodies (`X-Encryption: JWE`) arrive
 * in `req.body` as plain JSON, and the JSON answers to them leave as envelopes under the same kid.
 */
export function jwe(options: JweExpressOptions): JweMiddleware {
  const uploads: UploadRoutes = { largestLimit: 0 };
  const middleware = jweMiddleware(options, uploads) as JweMiddleware;
  middleware.upload = (uploadOptions = {}) => {
    const { limit: _jsonLimit, plainJson: _plainJson, ...shared } = options;
    const handler = jweUpload({ ...shared, ...uploadOptions } as JweUploadOptions);
    const limit = parseLimit(uploadOptions.limit ?? DEFAULT_UPLOAD_LIMIT, 'upload: "limit"');
    uploads.largestLimit = Math.max(uploads.largestLimit, limit);
    return handler;
  };
  return middleware;
}
