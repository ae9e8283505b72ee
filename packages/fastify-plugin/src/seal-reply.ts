import type { JweAnswer, JweServer } from '@jwe-transport/server-core';
import { reportSealFailure } from '@jwe-transport/server-core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openedOf } from './state.js';

type Done = (error: null, payload: unknown) => void;

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'X-Encryption');
  else if (!/(^|,)\s*(x-encryption|\*)\s*(,|$)/i.test(String(vary)))
    reply.header('vary', `${vary}, X-Encryption`);
}

function write(reply: FastifyReply, payload: unknown, done: Done, answer: JweAnswer): void {
  if (answer.body === undefined) {
    done(null, payload);
    return;
  }
  if (answer.failure) {
    const { request } = reply;
    reportSealFailure(answer, { logger: request.log }, { method: request.method, path: request.url });
  }
  // Fastify's code() and removeHeader() cost more than the checks that skip them.
  if (answer.status !== reply.statusCode) reply.code(answer.status);
  for (const name of answer.remove) if (reply.hasHeader(name)) reply.removeHeader(name);
  reply.headers(answer.headers);
  done(null, answer.body);
}

/**
 * The `onSend` hook: writes the engine's decision for each answer. JSON answers to encrypted
 * requests (errors included) leave as envelopes under the request's key and kid; streams and
 * non-JSON answers are left alone; if sealing fails the answer is a generic 500, never the
 * plaintext, and the failure is logged through `request.log`.
 */
export function sealReplies(server: JweServer) {
  const varies = server.variesByEncryption;
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: Done) => {
    if (varies) addVary(reply);
    const opened = openedOf(request);
    if (!opened?.responseKey || !(typeof payload === 'string' || payload instanceof Uint8Array)) {
      done(null, payload);
      return;
    }
    const answer = server.answer(
      opened,
      reply.statusCode,
      reply.getHeader('content-type') as string | undefined,
      payload,
    );
    if (answer instanceof Promise) answer.then((decided) => write(reply, payload, done, decided));
    else write(reply, payload, done, answer);
  };
}
