import type { JweServer } from '@jwe-transport/server-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openedOf } from './state.js';

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'X-Encryption');
  else if (!/(^|,)\s*(x-encryption|\*)\s*(,|$)/i.test(String(vary)))
    reply.header('vary', `${vary}, X-Encryption`);
}

/**
 * The `onSend` hook: writes the engine's decision for each answer. JSON answers to encrypted
 * requests (errors included) leave as envelopes under the request's key and kid; streams and
 * non-JSON answers are left alone; if sealing fails the answer is a generic 500, never the plaintext.
 */
export function sealReplies(server: JweServer) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ) => {
    if (server.variesByEncryption) addVary(reply);
    const opened = openedOf(request);
    if (!opened?.responseKey || !(typeof payload === 'string' || payload instanceof Uint8Array)) {
      done(null, payload);
      return;
    }
    const write = (answer: Awaited<ReturnType<JweServer['answer']>>) => {
      if (answer.body === undefined) {
        done(null, payload);
        return;
      }
      reply.code(answer.status);
      for (const name of answer.remove) reply.removeHeader(name);
      reply.headers(answer.headers);
      done(null, answer.body);
    };
    const answer = server.answer(
      opened,
      reply.statusCode,
      reply.getHeader('content-type') as string | undefined,
      payload,
    );
    if (answer instanceof Promise) answer.then(write);
    else write(answer);
  };
}
