/**
 * `@jwe-transport/hono-middleware/upload`: upload routes for Hono on Node, Bun and Deno (it
 * writes files with `node:fs`).
 * @packageDocumentation
 */
import { JweServer, type JweServerOptions, type RefusalReporting } from '@jwe-transport/server-core';
import { reportingOf } from '@jwe-transport/server-core/adapter';
import { receiveUploadFrom, resolveUpload } from '@jwe-transport/server-core/adapter/node';
import { DEFAULT_UPLOAD_LIMIT, type JweFile, type UploadOptions } from '@jwe-transport/server-core/node';
import type { MiddlewareHandler } from 'hono';
import { refuse } from '../refuse.js';
import { sealAnswer } from '../seal-answer.js';
import { markReadsBody } from '../skip.js';

// Re-exported on purpose (the README says so): the types an upload route's code names.
export type { JweFile, UploadOptions } from '@jwe-transport/server-core/node';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by `jweUpload()`: the uploaded file, after it was stored and (if encrypted) authenticated. */
    jweFile: JweFile;
  }
}

export interface JweUploadOptions extends JweServerOptions, UploadOptions, RefusalReporting {}

/**
 * Route middleware for file uploads: `app.post('/docs', jweUpload({ keys, dest: '/srv/uploads' }), handler)`.
 * It takes an encrypted `{"file": "<base64>"}` envelope (streamed to `dest` and authenticated
 * before the handler runs) or a plain multipart form (streamed to `dest` too, or kept in memory
 * without it; bounded memory either way), and gives the handler `c.get('jweFile')`. Files are
 * 0600 in a private folder made inside `dest`. An app-level `jwe()` leaves these routes' bodies to it.
 */
export function jweUpload(options: JweUploadOptions): MiddlewareHandler {
  const { dest, limit, maxSpill, fieldName, logger, onReject, ...serverOptions } = options;
  const server = new JweServer({ ...serverOptions, limit: limit ?? DEFAULT_UPLOAD_LIMIT });
  const reporting = reportingOf({
    ...(logger === undefined ? {} : { logger }),
    ...(onReject ? { onReject } : {}),
  });
  const upload = resolveUpload({
    ...(dest === undefined ? {} : { dest }),
    ...(limit === undefined ? {} : { limit }),
    ...(maxSpill === undefined ? {} : { maxSpill }),
    ...(fieldName === undefined ? {} : { fieldName }),
  });
  return markReadsBody(async (c, next) => {
    let received: Awaited<ReturnType<typeof receiveUploadFrom>>;
    try {
      const raw = c.req.raw;
      const headers: Record<string, string> = {};
      raw.headers.forEach((value, name) => {
        headers[name] = value;
      });
      received = await receiveUploadFrom(server, { headers, body: raw.body ?? undefined }, upload);
    } catch (error) {
      return refuse(server, reporting, c, error);
    }
    c.set('jwe', received.info);
    c.set('jweFile', received.file);
    await next();
    const response = c.res;
    c.res = undefined as unknown as Response;
    c.res = await sealAnswer(server, reporting, c, response, received);
  });
}
