/**
 * `@jwe-transport/service-client/hono`: the webhook receiver as a Hono handler, a thin adapter
 * over `verifyWebhook()` (Hono is an optional peer dependency; only its `c.req.raw` is used).
 * @packageDocumentation
 */
import { type WebhookHandlerOptions, webhookHandler } from '../webhooks/web-handler.js';

/** What the handler needs of Hono's context. */
export interface HonoContextLike {
  req: { raw: Request };
}

/**
 * `app.post('/webhook', honoWebhook({ signingKey, onEvent }))`: verifies, de-duplicates and
 * answers as `webhookHandler()` does. Mount no body-reading middleware before it.
 */
export function honoWebhook(options: WebhookHandlerOptions): (c: HonoContextLike) => Promise<Response> {
  const handle = webhookHandler(options);
  return (c) => handle(c.req.raw);
}

export type { WebhookHandlerOptions } from '../webhooks/web-handler.js';
