/**
 * `@jwe-transport/fastify-plugin`: Fastify 5 plugin for JWE (dir + A128CBC-HS256) encrypted
 * request bodies, answers and uploads.
 * @packageDocumentation
 */
import type { JweServer } from '@jwe-transport/server-core';
import fp from 'fastify-plugin';
import { jwePlugin } from './plugin.js';
import type { JweFastifyOptions } from './types.js';

export {
  type ErrorBody,
  isJweHttpError,
  JweHttpError,
  type JweHttpErrorCode,
  type JweHttpErrorType,
  type JweRequestInfo,
  type KeysOption,
  type ResponseEncryption,
  type SizeLimit,
} from '@jwe-transport/server-core';
export type { JweFastifyOptions, JweFile, JweRouteConfig, JweUploadConfig } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The engine behind the plugin (keys and settings), for code that opens or seals by hand. */
    jweServer: JweServer;
  }
}

/**
 * `app.register(jwe, { keys: { 'kid-1': sharedKey } })`: encrypted JSON bodies arrive in
 * `request.body` as plaintext, replies to them (errors included) leave sealed under the same
 * kid, and routes with `config: { jwe: { upload: { dest } } }` take multipart or encrypted uploads
 * as `request.jweFile`.
 */
export const jwe = fp<JweFastifyOptions>(jwePlugin, {
  fastify: '5.x',
  name: '@jwe-transport/fastify-plugin',
});

export default jwe;
