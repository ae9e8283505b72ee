/**
 * `@jwe-transport/server-core/adapter`: what a framework adapter (Express, Fastify, Hono) needs
 * beyond the public engine (`JweServer`, whose `answer`, `refusal` and `refuse` decide every
 * answer): the request reader, the body reader, refusal reporting and the few errors only an
 * adapter raises. Not for applications: these names may change between minor versions.
 * @packageDocumentation
 */
export { isEncryptedHeader } from '../encryption-header.js';
export { mountOrder, requestTimeout } from '../errors.js';
export { fileFromPayload } from '../file-payload.js';
export { parseLimit } from '../limit.js';
export { hasBody, type NodeHeaders, type NodeRequest, nodeBodyRequest } from '../node-request.js';
export { type BodyRequest, type OpenedBody, openBody } from '../open-body.js';
export { type BodySource, type ReadBodyOptions, readBody } from '../read-body.js';
export { type RefusedRequest, reportingOf, reportRefusal, reportSealFailure } from '../refusal.js';
export { decideResponse, openRequestBody } from '../web.js';
