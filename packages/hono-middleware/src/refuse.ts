import type { JweServer, Opened, RefusalReporting } from '@jwe-transport/server-core';
import { writeAnswer } from '@jwe-transport/server-core';
import { reportRefusal, reportSealFailure } from '@jwe-transport/server-core/adapter';
import type { Context } from 'hono';

/**
 * The engine's answer to an error, reported with the request's method and path (and, if the
 * answer could not be sealed, that failure too), as a `Response`.
 */
export async function refuse(
  server: JweServer,
  reporting: RefusalReporting,
  c: Context,
  error: unknown,
  opened?: Opened,
): Promise<Response> {
  const decision = await server.refuse(error, opened);
  const request = { method: c.req.method, path: c.req.path };
  reportRefusal(error, reporting, decision.report, request);
  reportSealFailure(decision, reporting, request);
  return writeAnswer(decision);
}
