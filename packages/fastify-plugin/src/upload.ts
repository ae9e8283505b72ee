import { Readable } from 'node:stream';
import type { JweServer } from '@jwe-transport/server-core';
import {
  type ResolvedUpload,
  receiveUploadFrom,
  resolveUpload,
} from '@jwe-transport/server-core/adapter/node';
import type { FastifyRequest } from 'fastify';
import { awaitsDecryption, keepRefusal, markUploadDone, setOpened } from './state.js';
import type { JweUploadConfig } from './types.js';

type Payload = FastifyRequest['raw'];

const settings = new WeakMap<JweUploadConfig, ResolvedUpload>();

/** A route's upload settings, resolved once. */
export function uploadSettings(config: JweUploadConfig): ResolvedUpload {
  let resolved = settings.get(config);
  if (!resolved) {
    resolved = resolveUpload(config);
    settings.set(config, resolved);
  }
  return resolved;
}

export function uploadLimit(config: JweUploadConfig): number {
  return uploadSettings(config).limit;
}

/**
 * The `preParsing` hook of upload routes with `dest`: an encrypted `{"file": "<base64>"}` body
 * takes the server core's one upload path before Fastify's parser can buffer it, so it streams to
 * disk in constant memory and the file appears only after the tag verified. The parser then sees
 * an empty body. Other requests pass through untouched.
 */
export function streamEncryptedUploads(server: JweServer, config: JweUploadConfig & { dest: string }) {
  const upload = uploadSettings(config);
  return async (request: FastifyRequest, _reply: unknown, payload: Payload): Promise<Payload> => {
    if (!awaitsDecryption(request)) return payload;
    try {
      const received = await receiveUploadFrom(server, { headers: request.headers, body: payload }, upload);
      setOpened(request, received);
      markUploadDone(request);
      request.jweFile = received.file;
    } catch (error) {
      // Answered by the plugin's preValidation hook, not by the application's error handler.
      keepRefusal(request, error);
    }
    // The parser has nothing left to read: the envelope was read here (or refused).
    return Readable.from([]) as Payload;
  };
}

/**
 * A plain multipart upload, through the server core's one upload path (streamed to `dest` or
 * kept in memory, bounded either way; a truncated body is a 400, not a 5xx). Fastify leaves the
 * body unread for `multipart/form-data` (the plugin's parser, or `@fastify/multipart`'s).
 */
export async function receiveMultipartUpload(
  server: JweServer,
  request: FastifyRequest,
  config: JweUploadConfig,
): Promise<void> {
  const received = await receiveUploadFrom(
    server,
    { headers: request.headers, body: request.raw },
    uploadSettings(config),
  );
  setOpened(request, received);
  request.jweFile = received.file;
}
