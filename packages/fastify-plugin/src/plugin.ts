import { JweHttpError, JweServer } from '@jwe-transport/server-core';
import { isEncryptedHeader, reportRefusal } from '@jwe-transport/server-core/adapter';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installJsonParser } from './json-parser.js';
import { refuse } from './refuse.js';
import { sealReplies } from './seal-reply.js';
import {
  awaitsDecryption,
  declareRefusal,
  declareState,
  hasBody,
  keptRefusal,
  markPending,
  setOpened,
} from './state.js';
import type { JweFastifyOptions, JweRouteConfig } from './types.js';
import { receiveMultipartUpload, streamEncryptedUploads, uploadLimit } from './upload.js';

const PENDING_INFO = Object.freeze({
  encrypted: false,
  kid: undefined,
  header: undefined,
  headerSource: undefined,
  encryptsResponse: false,
});

/**
 * Where the application has not set an error handler (Fastify's default is in place), answers
 * route failures (5xx) in the server core's shape, message hidden, logged at error through
 * `request.log`; Fastify's own client errors keep Fastify's answer. Registered where the plugin
 * is, so an application handler set before the plugin is left in place (nothing is installed)
 * and one set after replaces this one: either sees every error that is not the plugin's.
 */
function installDefaultErrorHandler(fastify: FastifyInstance, server: JweServer): void {
  const previous = fastify.errorHandler;
  if (previous.name !== 'defaultErrorHandler') return;
  fastify.setErrorHandler(function jweDefaultErrorHandler(error: unknown, request, reply) {
    const refusal = server.refusal(error);
    if (!(error instanceof JweHttpError) && refusal.status < 500)
      return previous.call(this, error, request, reply);
    reportRefusal(error, { logger: request.log }, refusal.report, {
      method: request.method,
      path: request.url,
    });
    return reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
  });
}

export async function jwePlugin(fastify: FastifyInstance, options: JweFastifyOptions): Promise<void> {
  const { errorHandler, ...serverOptions } = options;
  const server = new JweServer(serverOptions);
  const answerOwn = errorHandler !== false;
  // Upload routes read multipart bodies themselves: Fastify only has to leave them unread
  // (@fastify/multipart, when registered first, does the same).
  if (!fastify.hasContentTypeParser('multipart/form-data')) {
    fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  }
  fastify.decorateRequest('jwe', null as never);
  fastify.decorateRequest('jweFile', null);
  declareState(fastify);
  declareRefusal(fastify);
  fastify.decorate('jweServer', server);

  // Callback-style hooks where no await is needed: every JSON request passes through them.
  fastify.addHook('onRequest', (request, reply, done) => {
    request.jwe = PENDING_INFO;
    try {
      const withBody = hasBody(request);
      if (withBody && isEncryptedHeader(request.headers['x-encryption'])) {
        // An envelope is JSON whatever its Content-Type says, as on the other adapters.
        if (request.headers['content-type'] === undefined)
          request.headers['content-type'] = 'application/json';
        markPending(request);
        done();
        return;
      }
      const opened = server.openPlainNow(withBody);
      if (opened) {
        setOpened(request, opened);
        done();
      } else {
        server.openPlain(withBody).then(
          (state) => {
            setOpened(request, state);
            done();
          },
          (error: unknown) => refuse(server, answerOwn, request, reply, error),
        );
      }
    } catch (error) {
      refuse(server, answerOwn, request, reply, error);
    }
  });
  fastify.addHook('onRoute', (route) => {
    const upload = (route.config as { jwe?: JweRouteConfig } | undefined)?.jwe?.upload;
    if (!upload) return;
    // Fastify hands in-memory uploads to the parser: let it take up to the upload limit.
    route.bodyLimit = Math.max(route.bodyLimit ?? 0, uploadLimit(upload));
    const validators = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [...validators, receivePlainUploads(server, answerOwn)] as NonNullable<
      typeof route.preValidation
    >;
    if (upload.dest === undefined) return;
    const dest = upload.dest;
    const hooks = route.preParsing === undefined ? [] : [route.preParsing].flat();
    route.preParsing = [...hooks, streamEncryptedUploads(server, { ...upload, dest })] as NonNullable<
      typeof route.preParsing
    >;
  });
  installJsonParser(fastify, server);
  fastify.addHook('preValidation', (request, reply, done) => {
    const refused = keptRefusal(request);
    if (refused !== undefined) {
      refuse(server, answerOwn, request, reply, refused);
      return;
    }
    // An encrypted body that no JWE parser read (another content type) must not reach a handler.
    if (!awaitsDecryption(request)) {
      done();
      return;
    }
    refuse(
      server,
      answerOwn,
      request,
      reply,
      new JweHttpError(
        415,
        'jwe.envelope.invalid',
        'ERR_JWE_INVALID',
        'Send encrypted bodies with "Content-Type: application/json".',
      ),
    );
  });
  fastify.addHook('onSend', sealReplies(server));
  if (answerOwn) installDefaultErrorHandler(fastify, server);
}

/** The `preValidation` hook of upload routes: a plain multipart upload, refused from the hook. */
function receivePlainUploads(server: JweServer, answerOwn: boolean) {
  return async (request: FastifyRequest, reply: Parameters<typeof refuse>[3]): Promise<unknown> => {
    const upload = request.routeOptions.config.jwe?.upload;
    if (!upload || request.jweFile || request.jwe.encrypted || reply.sent) return;
    try {
      await receiveMultipartUpload(server, request, upload);
    } catch (error) {
      return refuse(server, answerOwn, request, reply, error);
    }
  };
}
