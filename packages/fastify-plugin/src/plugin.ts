import {
  errorBody,
  isEncryptedHeader,
  isJweHttpError,
  JweHttpError,
  JweServer,
  statusOf,
} from '@jwe-transport/server-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installJsonParser } from './json-parser.js';
import { sealReplies } from './seal-reply.js';
import { awaitsDecryption, hasBody, markPending, setOpened } from './state.js';
import type { JweFastifyOptions } from './types.js';
import { receiveMultipartUpload } from './upload.js';

const PENDING_INFO = Object.freeze({
  encrypted: false,
  kid: undefined,
  header: undefined,
  headerSource: undefined,
  encryptsResponse: false,
});

function installErrorHandler(fastify: FastifyInstance): void {
  const previous = fastify.errorHandler;
  fastify.setErrorHandler(function jweErrorHandler(error: unknown, request, reply) {
    const status = statusOf(error);
    if (!isJweHttpError(error) && status < 500) return previous.call(this, error, request, reply);
    // A 5xx is logged like Fastify's own handler does; its answer hides the message but keeps a code.
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    // A refused body may be left unread: close the connection rather than drain it.
    if (!request.raw.complete) reply.header('connection', 'close');
    return reply.code(statusOf(error)).send(errorBody(error));
  });
}

/** Whether the route takes uploads, and the request is the plain (multipart) kind. */
async function receivePlainUpload(request: FastifyRequest): Promise<void> {
  const upload = request.routeOptions.config.jwe?.upload;
  if (!upload || request.jweFile || request.jwe.encrypted) return;
  await receiveMultipartUpload(request, upload);
}

export async function jwePlugin(fastify: FastifyInstance, options: JweFastifyOptions): Promise<void> {
  const server = new JweServer(options);
  fastify.decorateRequest('jwe', null as never);
  fastify.decorateRequest('jweFile', null);
  fastify.decorate('jweServer', server);

  fastify.addHook('onRequest', async (request) => {
    request.jwe = PENDING_INFO;
    if (isEncryptedHeader(request.headers['x-encryption']) && hasBody(request)) markPending(request);
    else setOpened(request, await server.openPlain(hasBody(request)));
  });
  installJsonParser(fastify, server);
  fastify.addHook('preValidation', async (request) => {
    // An encrypted body that no JWE parser read (another content type) must not reach a handler.
    if (awaitsDecryption(request)) {
      throw new JweHttpError(
        415,
        'jwe.envelope.invalid',
        'ERR_JWE_INVALID',
        'Send encrypted bodies with "Content-Type: application/json".',
      );
    }
    await receivePlainUpload(request);
  });
  fastify.addHook('onSend', sealReplies(server));
  if (options.errorHandler !== false) installErrorHandler(fastify);
}
