import type { JweServer, Opened, RefusalReporting } from '@jwe-transport/server-core';
import { writeAnswer } from '@jwe-transport/server-core';
import { decideResponse, reportSealFailure } from '@jwe-transport/server-core/adapter';
import type { Context } from 'hono';

/**
 * The handler's answer as the engine decides it (JSON to a request that holds a key leaves
 * sealed); an answer that could not be sealed is reported with the request's method and path.
 */
export async function sealAnswer(
  server: JweServer,
  reporting: RefusalReporting,
  c: Context,
  response: Response,
  opened: Opened,
): Promise<Response> {
  const answer = await decideResponse(server, response, opened);
  reportSealFailure(answer, reporting, { method: c.req.method, path: c.req.path });
  return writeAnswer(answer, response);
}
