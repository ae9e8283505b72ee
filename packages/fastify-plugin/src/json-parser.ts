import type { JweServer } from '@jwe-transport/server-core';
import { parseLimit, tooLarge } from '@jwe-transport/server-core/adapter';
import { openFileEnvelope } from '@jwe-transport/server-core/adapter/node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { awaitsDecryption, setOpened, uploadDone } from './state.js';
import { uploadSettings } from './upload.js';

const JSON_TYPES: (string | RegExp)[] = ['application/json', /^application\/[\w.!#$%&'*^`|~-]+\+json/i];

/**
 * Replaces Fastify's JSON parser for `application/json` and `application/*+json`. Fastify reads
 * the body (within the route's `bodyLimit`); encrypted bodies are then decrypted and every body,
 * plain or decrypted, is parsed with the server core's one strict parser (the same 400s as the
 * other adapters), so handlers see plaintext in `request.body`.
 */
export function installJsonParser(fastify: FastifyInstance, server: JweServer): void {
  const decrypt = async (request: FastifyRequest, body: Buffer): Promise<unknown> => {
    const config = request.routeOptions.config.jwe;
    if (config?.upload) {
      const upload = uploadSettings(config.upload);
      if (body.length > upload.limit) throw tooLarge(upload.limit, body.length);
      const received = await openFileEnvelope(server, body, upload.fieldName);
      setOpened(request, received);
      request.jweFile = received.file;
      return {};
    }
    const limit =
      config?.limit === undefined ? server.options.limit : parseLimit(config.limit, 'jwe "limit"');
    if (body.length > limit) throw tooLarge(limit, body.length);
    const envelope = await server.openEnvelope(body);
    // Authenticated: from here on even the error answers go out sealed.
    setOpened(request, envelope);
    return server.parseJson(envelope.plaintext);
  };

  fastify.removeContentTypeParser('application/json');
  for (const type of JSON_TYPES) {
    fastify.addContentTypeParser(type, { parseAs: 'buffer' }, (request, body: Buffer, done) => {
      if (uploadDone(request)) done(null, {});
      else if (!awaitsDecryption(request)) {
        try {
          done(null, body.length === 0 ? undefined : server.parsePlainJson(body).value);
        } catch (error) {
          done(error as Error, undefined);
        }
      } else
        decrypt(request, body).then(
          (value) => done(null, value),
          (error: Error) => done(error, undefined),
        );
    });
  }
}
