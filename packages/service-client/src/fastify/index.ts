/**
 * `@jwe-transport/service-client/fastify`: the webhook receiver as a Fastify plugin, a thin
 * adapter over `verifyWebhook()` (Fastify 4 or 5 is an optional peer dependency).
 * @packageDocumentation
 */
import type { FastifyInstance } from 'fastify';
import { parseLimit } from '../webhooks/body-limit.js';
import { createWebhookProcessor, type WebhookProcessorOptions } from '../webhooks/processor.js';

export interface FastifyWebhookOptions extends WebhookProcessorOptions {
  /** The route, under the plugin's prefix. Default `/webhook`. */
  path?: string;
  /** Body size limit: bytes, or text such as `'256kb'`. Default 256 KiB; Fastify answers 413 past it. */
  limit?: number | string;
}

/**
 * `app.register(fastifyWebhook, { signingKey, onEvent })`: a `POST` route that takes the raw
 * body (its own encapsulated body parser, so the rest of the app keeps its JSON parsing),
 * verifies and de-duplicates it, and answers as `ack` says. Refusals answer with their status and
 * `{ error: { code, type, message } }`.
 */
export async function fastifyWebhook(
  fastify: FastifyInstance,
  options: FastifyWebhookOptions,
): Promise<void> {
  const bodyLimit = parseLimit(options.limit, 'fastifyWebhook');
  const processDelivery = createWebhookProcessor(options);
  // Encapsulated: only this plugin's routes see the body as raw bytes.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
  fastify.post(options.path ?? '/webhook', { bodyLimit }, async (request, reply) => {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : new Uint8Array(0);
    const outcome = await processDelivery(rawBody, request.headers);
    const after = outcome.afterAnswer;
    if (after) reply.raw.once('finish', () => void after());
    return reply.code(outcome.status).headers(outcome.headers).send(outcome.body);
  });
}

export type { AckMode, WebhookDelivery } from '../webhooks/processor.js';
