/**
 * `@jwe-transport/express-middleware`: Express 4 and 5 middleware for JWE (dir + A128CBC-HS256)
 * encrypted request bodies, encrypted JSON answers and encrypted or multipart file uploads.
 * @packageDocumentation
 */
import type { RequestHandler } from 'express';
import { jwe as jweMiddleware } from './middleware.js';
import type { JweOptions } from './options.js';
import { type JweUploadOptions, jweUpload } from './upload.js';

export { jweErrorHandler } from './error-handler.js';
export {
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
} from './errors.js';
export { type JweFile, type RequestWithFile, uploadedFile } from './file.js';
export type { KeysOption } from './keys.js';
export type { SizeLimit } from './limit.js';
export type { JweOptions, ResponseEncryption } from './options.js';
export type { JweRequestInfo } from './request-info.js';
export { sniffMimeType } from './sniff.js';
export { type JweUploadOptions, jweUpload };

/** The middleware, with `.upload()` for file routes that share its keys and settings. */
export interface JweMiddleware extends RequestHandler {
  /** A per-route upload handler with these options plus upload-specific ones (`limit` defaults to `'10mb'`). */
  upload(options?: Omit<JweUploadOptions, keyof JweOptions> & Partial<JweOptions>): RequestHandler;
}

/**
 * `app.use(jwe({ keys: { 'kid-1': sharedKey } }))`: encrypted bodies (`X-Encryption: JWE`) arrive
 * in `req.body` as plain JSON, and the JSON answers to them leave as envelopes under the same kid.
 */
export function jwe(options: JweOptions): JweMiddleware {
  const middleware = jweMiddleware(options) as JweMiddleware;
  middleware.upload = (uploadOptions = {}) => {
    const { limit: _jsonLimit, plainJson: _plainJson, ...shared } = options;
    return jweUpload({ ...shared, ...uploadOptions } as JweUploadOptions);
  };
  return middleware;
}
