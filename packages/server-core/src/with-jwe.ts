import { JweServer } from './jwe-server.js';
import type { JweServerOptions } from './options.js';
import { bodyReadToEnd } from './read-body.js';
import { noteKid, type RefusalReporting, reportRefusal } from './refusal.js';
import { errorResponse, openRequest, sealResponse } from './web.js';

export interface WithJweOptions extends JweServerOptions, RefusalReporting {
  /**
   * Called with every error that becomes a 5xx answer, with the request. Default, when neither
   * this nor `logger` is set: logs the error to stderr, as Express's own handler does.
   */
  onError?: (error: unknown, request: Request) => void;
}

const logToStderr = (error: unknown) => console.error(error);

/** What an adapter does with each error answer: report it, then answer it. */
export type Refuser = (
  server: JweServer,
  error: unknown,
  request: Request,
  opened?: Parameters<typeof errorResponse>[2],
) => Promise<Response>;

/** `errorResponse` that reports each refusal through `logger`/`onReject`, and 5xx through `onError`. */
export function refuser(options: WithJweOptions | JweServer): Refuser {
  const own: Partial<WithJweOptions> = options instanceof JweServer ? {} : options;
  const reporting: RefusalReporting = {};
  if (own.logger) reporting.logger = own.logger;
  if (own.onReject) reporting.onReject = own.onReject;
  const onError = own.onError ?? (own.logger ? undefined : logToStderr);
  return async (server, error, request, opened) => {
    if (opened) noteKid(error, opened.info.kid);
    const answer = await errorResponse(server, error, opened);
    // As the Node adapters do: an unread (or half-read) body must not be parsed as the next request.
    if (request.body !== null && !bodyReadToEnd(request)) answer.headers.set('connection', 'close');
    reportRefusal(error, reporting);
    if (answer.status >= 500 && onError) {
      try {
        onError(error, request);
      } catch {
        // A failing logger must not cost the client its answer.
      }
    }
    return answer;
  };
}

/**
 * Wraps a Web-standard route handler (`(request) => Response`, as in Next.js, Bun.serve, Deno.serve):
 * encrypted requests reach it decrypted (`await request.json()` is the plaintext), its JSON
 * answers to them leave sealed under the same kid, plain JSON bodies are parsed once with the
 * same strict parser, and failures become JSON errors with a status, `type` and `code`, reported
 * to `logger`/`onReject`. Extra arguments (route context) are passed on.
 */
export function withJwe<Rest extends unknown[]>(
  handler: (request: Request, ...rest: Rest) => Response | Promise<Response>,
  options: WithJweOptions | JweServer,
): (request: Request, ...rest: Rest) => Promise<Response> {
  const server = options instanceof JweServer ? options : new JweServer(options);
  const refuse = refuser(options);
  return async (request, ...rest) => {
    let exchange: Awaited<ReturnType<typeof openRequest>>;
    try {
      exchange = await openRequest(server, request);
    } catch (error) {
      return refuse(server, error, request);
    }
    let response: Response;
    try {
      response = await handler(exchange.request, ...rest);
    } catch (error) {
      return refuse(server, error, request, exchange);
    }
    return sealResponse(server, response, exchange);
  };
}
