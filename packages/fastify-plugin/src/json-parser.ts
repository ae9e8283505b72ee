import { type JweServer, parseLimit, readAll, refuseEarly } from '@jwe-transport/server-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { awaitsDecryption, setOpened } from './state.js';
import { receiveEncryptedUpload } from './upload.js';

type Payload = FastifyRequest['raw'];

const JSON_TYPES: (string | RegExp)[] = ['application/json', /^application\/[\w.!#$%&'*^`|~-]+\+json/i];

/**
 * Replaces Fastify's JSON parser for `application/json` and `application/*+json`. Encrypted
 * bodies are decrypted and parsed strictly here, so handlers see plaintext in `request.body`;
 * plain bodies go to Fastify's own parser with its own settings (prototype poisoning, bodyLimit).
 */
export function installJsonParser(fastify: FastifyInstance, server: JweServer): void {
  const { onProtoPoisoning, onConstructorPoisoning } = fastify.initialConfig;
  const plainParser = fastify.getDefaultJsonParser(
    onProtoPoisoning ?? 'error',
    onConstructorPoisoning ?? 'error',
  );
  const parsePlain = async (request: FastifyRequest, payload: Payload): Promise<unknown> => {
    const limit = request.routeOptions.bodyLimit ?? fastify.initialConfig.bodyLimit ?? 1024 * 1024;
    const bytes = await readAll(payload, limit);
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    return new Promise((resolve, reject) => {
      plainParser(request, text, (error, value) => (error ? reject(error) : resolve(value)));
    });
  };

  const parse = async (request: FastifyRequest, payload: Payload): Promise<unknown> => {
    if (!awaitsDecryption(request)) return parsePlain(request, payload);
    const config = request.routeOptions.config.jwe;
    if (config?.upload) {
      await receiveEncryptedUpload(server, request, payload, config.upload);
      return {};
    }
    const limit =
      config?.limit === undefined ? server.options.limit : parseLimit(config.limit, 'jwe "limit"');
    refuseEarly(request.headers['content-encoding'], request.headers['content-length'], limit);
    const envelope = await server.openEnvelope(await readAll(payload, limit));
    // Authenticated: from here on even the error answers go out sealed.
    setOpened(request, envelope);
    return server.parseJson(envelope.plaintext);
  };

  fastify.removeContentTypeParser('application/json');
  for (const type of JSON_TYPES) {
    fastify.addContentTypeParser(type, (request, payload, done) => {
      parse(request, payload).then(
        (value) => done(null, value),
        (error: Error) => done(error, undefined),
      );
    });
  }
}
