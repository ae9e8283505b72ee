import type { JweServer } from '@jwe-transport/server-core';
import { carriesBody, ENCRYPT_FAILED_BODY, isJsonType } from '@jwe-transport/server-core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { openedOf } from './state.js';

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'X-Encryption');
  else if (!/(^|,)\s*(x-encryption|\*)\s*(,|$)/i.test(String(vary)))
    reply.header('vary', `${vary}, X-Encryption`);
}

/**
 * The `onSend` hook: JSON answers to encrypted requests (errors included) leave as envelopes
 * under the request's key and kid. Streams and non-JSON answers are left alone. If sealing
 * fails the answer is a generic 500, never the plaintext.
 */
export function sealReplies(server: JweServer) {
  return (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: null, payload: unknown) => void,
  ) => {
    if (server.variesByEncryption) addVary(reply);
    const key = openedOf(request)?.responseKey;
    if (
      !key ||
      !(typeof payload === 'string' || payload instanceof Uint8Array) ||
      !carriesBody(reply.statusCode) ||
      !isJsonType(reply.getHeader('content-type') as string | undefined)
    ) {
      done(null, payload);
      return;
    }
    const sealed = (envelope: string) => {
      reply.header('x-encryption', 'JWE');
      reply.header('content-type', 'application/json; charset=utf-8');
      reply.removeHeader('etag');
      done(null, envelope);
    };
    const failed = () => {
      reply.code(500);
      reply.removeHeader('x-encryption');
      done(null, ENCRYPT_FAILED_BODY);
    };
    try {
      const envelope = server.sealNow(payload, key);
      if (envelope !== undefined) sealed(envelope);
      else server.seal(payload, key).then(sealed, failed);
    } catch {
      failed();
    }
  };
}
