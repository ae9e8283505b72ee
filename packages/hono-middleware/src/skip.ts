import type { Context, MiddlewareHandler } from 'hono';

/** Marks route middleware that reads the body itself, so the app-level `jwe()` leaves the body to it. */
export const READS_BODY = Symbol.for('@jwe-transport/hono-middleware.readsBody');

export function markReadsBody(handler: MiddlewareHandler): MiddlewareHandler {
  Object.defineProperty(handler, READS_BODY, { value: true });
  return handler;
}

/** Whether a route-level handler matched for this request reads the body itself (an upload route). */
export function bodyReadLater(c: Context): boolean {
  return c.req.matchedRoutes.some(
    (route) => (route.handler as unknown as Record<symbol, unknown>)[READS_BODY] === true,
  );
}
