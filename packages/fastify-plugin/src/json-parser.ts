import { type JweServer, parseLimit, tooLarge } from '@jwe-transport/server-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { awaitsDecryption, setOpened, uploadDone } from './state.js';
import { receiveEncryptedUploadInMemory } from './upload.js';

const JSON_TYPES: (string | RegExp)[] = ['application/json', /^application\/[\w.!#$%&'*^`|~-]+\+json/i];

/**
 * Replaces Fastify's JSON parser for `application/json` and `application/*+json`. Fastify reads
 * the body (within the route's `bodyLimit`); encrypted bodies are then decrypted and parsed
 * strictly here, so handlers see plaintext in `request.body`. Plain bodies go to Fastify's own
 * parser with its own settings (prototype poisoning).
 */
export function installJsonParser(fastify: FastifyInstance, server: JweServer): void {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const plainParser = fastify.getDefaultJsonParser(
    onProtoPoisoning ?? 'error',
    onConstructorPoisoning ?? 'error',
  );

  const decrypt = async (request: FastifyRequest, body: Buffer): Promise<unknown> => {
    const config = request.routeOptions.config.jwe;
    if (config?.upload) {
      await receiveEncryptedUploadInMemory(server, request, body, config.upload);
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
      else if (!awaitsDecryption(request)) plainParser(request, body.toString('utf8'), done);
      else
        decrypt(request, body).then(
          (value) => done(null, value),
          (error: Error) => done(error, undefined),
        );
    });
  }
}
