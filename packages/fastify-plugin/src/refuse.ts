import type { JweServer } from '@jwe-transport/server-core';
import { reportRefusal } from '@jwe-transport/server-core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openedOf, setOpened } from './state.js';

/**
 * Answers one of the plugin's own refusals from a hook, so it never reaches an error handler:
 * the engine decides the answer (sealed by `onSend` once the request authenticated), the
 * refusal is logged through `request.log` with its method, path, code and kid. With
 * `errorHandler: false` the error goes to Fastify's error handling instead.
 */
export function refuse(
  server: JweServer,
  answerOwn: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
  error: unknown,
): FastifyReply {
  // A refused body may be left unread: close the connection rather than drain it.
  if (!request.raw.complete) reply.header('connection', 'close');
  if (!answerOwn) return reply.send(error);
  const refusal = server.refusal(error, request.jwe?.encrypted ? openedOf(request) : undefined);
  // Raised after an upload's envelope authenticated: its answer is sealed like any other.
  if (refusal.opened && !request.jwe?.encrypted) setOpened(request, refusal.opened);
  reportRefusal(error, { logger: request.log }, refusal.report, {
    method: request.method,
    path: request.url,
  });
  return reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
}
