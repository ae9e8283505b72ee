import type { JweServer } from '@jwe-transport/server-core';
import { parseLimit, readBody } from '@jwe-transport/server-core/adapter';
import { openFileEnvelope } from '@jwe-transport/server-core/adapter/node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { awaitsDecryption, keepRefusal, keptRefusal, setOpened, uploadDone } from './state.js';
import { uploadSettings } from './upload.js';

const JSON_TYPES: (string | RegExp)[] = ['application/json', /^application\/[\w.!#$%&'*^`|~-]+\+json/i];

type Payload = FastifyRequest['raw'];

/**
 * Replaces Fastify's JSON parser for `application/json` and `application/*+json`. The body is
 * read with the server core's one body reader (its limit, its 413 and 415); encrypted bodies
 * are then decrypted and every body, plain or decrypted, is parsed with the server core's one
 * strict parser, so handlers see plaintext in `request.body`. A refusal is kept for the
 * `preValidation` hook to answer, not handed to Fastify's error handler.
 */
export function installJsonParser(fastify: FastifyInstance, server: JweServer): void {
  const read = (request: FastifyRequest, payload: Payload, limit: number) =>
    readBody(payload, {
      limit,
      contentEncoding: request.headers['content-encoding'],
      contentLength: request.headers['content-length'],
    });

  const decrypt = async (request: FastifyRequest, payload: Payload): Promise<unknown> => {
    const config = request.routeOptions.config.jwe;
    if (config?.upload) {
      const upload = uploadSettings(config.upload);
      const received = await openFileEnvelope(
        server,
        await read(request, payload, upload.limit),
        upload.fieldName,
      );
      setOpened(request, received);
      request.jweFile = received.file;
      return {};
    }
    const limit =
      config?.limit === undefined ? server.options.limit : parseLimit(config.limit, 'jwe "limit"');
    const envelope = await server.openEnvelope(await read(request, payload, limit));
    // Authenticated: from here on even the error answers go out sealed.
    setOpened(request, envelope);
    return server.parseOpened(envelope).value;
  };

  const parsePlain = async (request: FastifyRequest, payload: Payload): Promise<unknown> => {
    const body = await read(request, payload, request.routeOptions.bodyLimit ?? server.options.limit);
    return body.length === 0 ? undefined : server.parsePlainJson(body).value;
  };

  fastify.removeContentTypeParser('application/json');
  for (const type of JSON_TYPES) {
    fastify.addContentTypeParser(type, (request, payload, done) => {
      if (uploadDone(request) || keptRefusal(request) !== undefined) {
        done(null, {});
        return;
      }
      (awaitsDecryption(request) ? decrypt(request, payload) : parsePlain(request, payload)).then(
        (value) => done(null, value),
        (error: unknown) => {
          keepRefusal(request, error);
          done(null, undefined);
        },
      );
    });
  }
}
