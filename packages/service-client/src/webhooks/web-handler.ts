import { parseLimit, readLimited, tooLarge } from './body-limit.js';
import { isWebhookError } from './errors.js';
import {
  createWebhookProcessor,
  internalFailure,
  refusal,
  type WebhookOutcome,
  type WebhookProcessorOptions,
} from './processor.js';

export interface WebhookHandlerOptions extends WebhookProcessorOptions {
  /** Body size limit: bytes, or text such as `'256kb'`. Default 256 KiB. */
  limit?: number | string;
}

function respond(outcome: WebhookOutcome): Response {
  const headers = { 'content-type': 'application/json', ...outcome.headers };
  return new Response(JSON.stringify(outcome.body), { status: outcome.status, headers });
}

/**
 * A webhook receiver for Web-standard servers: `(request: Request) => Promise<Response>`, for
 * `Deno.serve`, `Bun.serve`, Hono (`app.post('/webhook', (c) => handle(c.req.raw))`) and any
 * fetch-style handler. With ack `before-handler`, `onEvent` starts right after the Response is
 * returned.
 */
export function webhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  const limit = parseLimit(options.limit, 'webhookHandler()');
  const processDelivery = createWebhookProcessor(options);
  return async (request) => {
    const declared = Number(request.headers.get('content-length'));
    let rawBody: Uint8Array;
    try {
      if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
      rawBody = await readLimited(request.body, limit);
    } catch (error) {
      if (isWebhookError(error)) return respond(refusal(error));
      return respond(internalFailure(error, options.log));
    }
    const outcome = await processDelivery(rawBody, request.headers);
    if (outcome.afterAnswer) void outcome.afterAnswer();
    return respond(outcome);
  };
}
