import { JweHttpError, JweServer } from '@jwe-transport/server-core';
import {
  describeRefusal,
  errorBody,
  isEncryptedHeader,
  isJsonType,
  isJweHttpError,
  noteKid,
  openedOfError,
  refuseEarly,
  reportRefusal,
  statusOf,
  tooLarge,
} from '@jwe-transport/server-core/adapter';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installJsonParser } from './json-parser.js';
import { sealReplies } from './seal-reply.js';
import { awaitsDecryption, declareState, hasBody, markPending, setOpened } from './state.js';
import type { JweFastifyOptions, JweRouteConfig } from './types.js';
import { receiveMultipartUpload, streamEncryptedUploads, uploadLimit } from './upload.js';

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
    if ((error as { code?: unknown } | null)?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      error = tooLarge(request.routeOptions.bodyLimit ?? 0, undefined);
    }
    const status = statusOf(error);
    // Fastify's own client errors keep Fastify's answer and its own info-level log line.
    if (!isJweHttpError(error) && status < 500) return previous.call(this, error, request, reply);
    // Every other refusal says why through the request's logger: a 4xx at info with its code and
    // kid (no stack), a 5xx at error with the error; the answer hides a 5xx's message.
    if (request.jwe.encrypted) noteKid(error, request.jwe.kid);
    // Raised after an upload's envelope authenticated: its answer is sealed like any other.
    const opened = openedOfError(error);
    if (opened && !request.jwe.encrypted) setOpened(request, opened);
    reportRefusal(error, { logger: request.log }, describeRefusal(error));
    // A refused body may be left unread: close the connection rather than drain it.
    if (!request.raw.complete) reply.header('connection', 'close');
    return reply.code(statusOf(error)).send(errorBody(error));
  });
}

/** Whether the route takes uploads, and the request is the plain (multipart) kind. */
function plainUploads(server: JweServer) {
  return async (request: FastifyRequest): Promise<void> => {
    const upload = request.routeOptions.config.jwe?.upload;
    if (!upload || request.jweFile || request.jwe.encrypted) return;
    await receiveMultipartUpload(server, request, upload);
  };
}

export async function jwePlugin(fastify: FastifyInstance, options: JweFastifyOptions): Promise<void> {
  const server = new JweServer(options);
  const receivePlain = plainUploads(server);
  // Upload routes read multipart bodies themselves: Fastify only has to leave them unread
  // (@fastify/multipart, when registered first, does the same).
  if (!fastify.hasContentTypeParser('multipart/form-data')) {
    fastify.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
  }
  fastify.decorateRequest('jwe', null as never);
  fastify.decorateRequest('jweFile', null);
  declareState(fastify);
  fastify.decorate('jweServer', server);

  // Callback-style hooks where no await is needed: every JSON request passes through them.
  fastify.addHook('onRequest', (request, _reply, done) => {
    request.jwe = PENDING_INFO;
    try {
      const withBody = hasBody(request);
      const encrypted = isEncryptedHeader(request.headers['x-encryption']);
      // A compressed envelope or JSON body is a 415 on every adapter.
      if (withBody && (encrypted || isJsonType(request.headers['content-type']))) {
        refuseEarly(request.headers['content-encoding'], undefined, Number.POSITIVE_INFINITY);
      }
      if (withBody && encrypted) {
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
        server.openPlain(withBody).then((state) => {
          setOpened(request, state);
          done();
        }, done);
      }
    } catch (error) {
      done(error as Error);
    }
  });
  fastify.addHook('onRoute', (route) => {
    const upload = (route.config as { jwe?: JweRouteConfig } | undefined)?.jwe?.upload;
    if (!upload) return;
    // Fastify reads in-memory uploads itself: let it read up to the upload limit.
    route.bodyLimit = Math.max(route.bodyLimit ?? 0, uploadLimit(upload));
    const validators = route.preValidation === undefined ? [] : [route.preValidation].flat();
    route.preValidation = [...validators, receivePlain] as NonNullable<typeof route.preValidation>;
    if (upload.dest === undefined) return;
    const dest = upload.dest;
    const hooks = route.preParsing === undefined ? [] : [route.preParsing].flat();
    route.preParsing = [...hooks, streamEncryptedUploads(server, { ...upload, dest })] as NonNullable<
      typeof route.preParsing
    >;
  });
  installJsonParser(fastify, server);
  fastify.addHook('preValidation', (request, _reply, done) => {
    // An encrypted body that no JWE parser read (another content type) must not reach a handler.
    if (!awaitsDecryption(request)) done();
    else
      done(
        new JweHttpError(
          415,
          'jwe.envelope.invalid',
          'ERR_JWE_INVALID',
          'Send encrypted bodies with "Content-Type: application/json".',
        ),
      );
  });
  fastify.addHook('onSend', sealReplies(server));
  if (options.errorHandler !== false) installErrorHandler(fastify);
}
