/**
 * `@jwe-transport/testing`: test a front end or a client against the encrypted API without a
 * server. MSW handlers that speak JWE, and builders for fixtures and webhook deliveries. The
 * undici helper is at `@jwe-transport/testing/undici`, the reference service (Node) at
 * `@jwe-transport/testing/reference-service`.
 * @packageDocumentation
 */

export {
  createJweHttp,
  type JweHttp,
  type JweHttpOptions,
  type JweHttpRequestHandler,
  type JweRequestPredicate,
  type JweResolverInfo,
  type JweResolverResult,
  type JweResponseResolver,
} from './http.js';
export type { JweRequestFacts } from './open-request.js';
export { type SealablePlaintext, type SealOptions, sealedEnvelope } from './sealed-envelope.js';
export {
  type SignedDelivery,
  type SignedDeliveryOptions,
  signedDelivery,
  WEBHOOK_SIGNATURE_HEADER,
} from './signed-delivery.js';
