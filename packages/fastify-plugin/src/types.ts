import type { JweRequestInfo, JweServerOptions, SizeLimit } from '@jwe-transport/server-core';
import type { JweFile } from '@jwe-transport/server-core/node';

export type { JweFile };

/** Per-route settings, under `config.jwe` in the route options. */
export interface JweRouteConfig {
  /** Largest encrypted JSON body on this route. Default: the plugin's `limit`. */
  limit?: SizeLimit;
  /** Makes this an upload route: multipart or an encrypted `{"file": "<base64>"}` body, both as `request.jweFile`. */
  upload?: JweUploadConfig;
}

export interface JweUploadConfig {
  /**
   * Folder for uploaded files. Encrypted uploads stream there in constant memory and appear
   * only after their tag verified. Without it files are kept in memory (small files only).
   */
  dest?: string;
  /** Largest upload (the envelope, or the multipart file). Default `'10mb'`. */
  limit?: SizeLimit;
  /** Largest ciphertext kept on disk while `kid`/`iv`/`protected` follow it. Default: `limit`. */
  maxSpill?: SizeLimit;
  /** The multipart field (and envelope member) holding the file. Default `'file'`. */
  fieldName?: string;
}

export interface JweFastifyOptions extends JweServerOptions {
  /**
   * `true` (default): the plugin answers its own refusals from its hooks as
   * `{"error": {"type", "code", "message"}}`, logged through `request.log`, and where the
   * application has set no error handler it answers route failures (5xx) in the same shape.
   * `false`: its refusals go to Fastify's error handling (yours): they carry `statusCode`,
   * `code`, `type` and `expose`.
   */
  errorHandler?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `@jwe-transport/fastify-plugin` on every request: what it did with it. */
    jwe: JweRequestInfo;
    /** On routes with `config.jwe.upload`: the uploaded file, after it authenticated. */
    jweFile: JweFile | null;
  }
  interface FastifyContextConfig {
    /** `@jwe-transport/fastify-plugin` settings for this route. */
    jwe?: JweRouteConfig;
  }
}
