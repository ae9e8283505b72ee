import type { JweAnswer } from './decision.js';
import { JweServer } from './jwe-server.js';
import type { Opened } from './opened.js';
import type { JweServerOptions } from './options.js';
import { bodyReadToEnd } from './read-body.js';
import { type Refusal, type RefusalReporting, reportingOf, reportRefusal } from './refusal.js';
import { decideResponse, openRequest, writeAnswer } from './web.js';

export interface WithJweOptions extends JweServerOptions, RefusalReporting {
  /** Called with every error that becomes a 5xx answer, with the request, after it is logged. */
  onError?: (error: unknown, request: Request) => void;
}

/** How `withJwe` and `withJweUpload` answer: each decision reported and written as a `Response`. */
export interface Responder {
  /** The handler's `response`, sealed as the engine decides. */
  answer(server: JweServer, response: Response, request: Request, opened: Opened): Promise<Response>;
  /** The engine's answer to `error`. */
  refuse(server: JweServer, error: unknown, request: Request, opened?: Opened): Promise<Response>;
}

/**
 * The answers of `withJwe` and `withJweUpload`: every refusal, and every answer that could not be
 * sealed, reported through `logger`/`onReject` and, as a 5xx, through `onError`.
 */
export function responder(options: WithJweOptions | JweServer): Responder {
  const own: Partial<WithJweOptions> = options instanceof JweServer ? {} : options;
  const reporting = reportingOf(own);
  const onError = own.onError;
  const report = (error: unknown, refusal: Refusal, request: Request) => {
    reportRefusal(error, reporting, refusal, requestOf(request));
    if (refusal.status >= 500 && onError) {
      try {
        onError(error, request);
      } catch {
        // A failing logger must not cost the client its answer.
      }
    }
  };
  const reportFailure = (answer: JweAnswer, request: Request) => {
    if (answer.failure) report(answer.failure.error, answer.failure.report, request);
  };
  return {
    async answer(server, response, request, opened) {
      const decision = await decideResponse(server, response, opened);
      reportFailure(decision, request);
      return writeAnswer(decision, response);
    },
    async refuse(server, error, request, opened) {
      const decision = await server.refuse(error, opened);
      const answer = writeAnswer(decision);
      // As the Node adapters do: an unread (or half-read) body must not be parsed as the next request.
      if (request.body !== null && !bodyReadToEnd(request)) answer.headers.set('connection', 'close');
      report(error, decision.report, request);
      reportFailure(decision, request);
      return answer;
    },
  };
}

function requestOf(request: Request): { method: string; path: string } {
  let path: string;
  try {
    path = new URL(request.url).pathname;
  } catch {
    path = request.url;
  }
  return { method: request.method, path };
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
  const { answer, refuse } = responder(options);
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
    return answer(server, response, request, exchange);
  };
}
