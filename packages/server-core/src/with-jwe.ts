import { JweServer } from './jwe-server.js';
import type { JweServerOptions } from './options.js';
import { errorResponse, openRequest, sealResponse } from './web.js';

export interface WithJweOptions extends JweServerOptions {
  /**
   * Called with every error that becomes a 5xx answer, with the request. Default: logs the
   * error to stderr, as Express's own handler does. Client errors (4xx) are not reported.
   */
  onError?: (error: unknown, request: Request) => void;
}

const logToStderr = (error: unknown) => console.error(error);

/**
 * Wraps a Web-standard route handler (`(request) => Response`, as in Next.js, Bun.serve, Deno.serve):
 * encrypted requests reach it decrypted (`await request.json()` is the plaintext), its JSON
 * answers to them leave sealed under the same kid, plain requests pass through, and failures
 * become JSON errors with a status, `type` and `code`. Extra arguments (route context) are passed on.
 */
export function withJwe<Rest extends unknown[]>(
  handler: (request: Request, ...rest: Rest) => Response | Promise<Response>,
  options: WithJweOptions | JweServer,
): (request: Request, ...rest: Rest) => Promise<Response> {
  const server = options instanceof JweServer ? options : new JweServer(options);
  const onError = (options instanceof JweServer ? undefined : options.onError) ?? logToStderr;
  return async (request, ...rest) => {
    let exchange: Awaited<ReturnType<typeof openRequest>>;
    try {
      exchange = await openRequest(server, request);
    } catch (error) {
      return errorResponse(server, error);
    }
    let response: Response;
    try {
      response = await handler(exchange.request, ...rest);
    } catch (error) {
      const answer = await errorResponse(server, error, exchange);
      if (answer.status >= 500) onError(error, request);
      return answer;
    }
    return sealResponse(server, response, exchange);
  };
}
