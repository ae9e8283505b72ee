/**
 * `@jwe-transport/hono-middleware/upload`: upload routes for Hono on Node, Bun and Deno (it
 * writes files with `node:fs`).
 * @packageDocumentation
 */
import { errorResponse, JweServer, type JweServerOptions, sealResponse } from '@jwe-transport/server-core';
import { receiveUpload, type UploadedFile, type UploadOptions } from '@jwe-transport/server-core/node';
import type { MiddlewareHandler } from 'hono';
import { markReadsBody } from './skip.js';

export type { UploadedFile, UploadOptions } from '@jwe-transport/server-core/node';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by `jweUpload()`: the uploaded file, after it was stored and (if encrypted) authenticated. */
    jweFile: UploadedFile;
  }
}

export interface JweUploadOptions extends JweServerOptions, UploadOptions {}

/**
 * Route middleware for file uploads: `app.post('/docs', jweUpload({ keys, dest: '/srv/uploads' }), handler)`.
 * It takes an encrypted `{"file": "<base64>"}` envelope (streamed to `dest` and authenticated
 * before the handler runs) or a plain multipart form, and gives the handler `c.get('jweFile')`.
 * An app-level `jwe()` leaves these routes' bodies to it.
 */
export function jweUpload(options: JweUploadOptions): MiddlewareHandler {
  const { dest, limit, maxSpill, fieldName, ...serverOptions } = options;
  const server = new JweServer({ ...serverOptions, limit: limit ?? '10mb' });
  const upload: UploadOptions = {};
  if (dest !== undefined) upload.dest = dest;
  if (limit !== undefined) upload.limit = limit;
  if (maxSpill !== undefined) upload.maxSpill = maxSpill;
  if (fieldName !== undefined) upload.fieldName = fieldName;
  return markReadsBody(async (c, next) => {
    let received: Awaited<ReturnType<typeof receiveUpload>>;
    try {
      received = await receiveUpload(server, c.req.raw, upload);
    } catch (error) {
      return errorResponse(server, error);
    }
    c.set('jwe', received.info);
    c.set('jweFile', received.file);
    await next();
    const response = c.res;
    c.res = undefined as unknown as Response;
    c.res = await sealResponse(server, response, received);
  });
}
