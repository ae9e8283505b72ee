import type { Opened } from '@jwe-transport/server-core';
import {
  errorResponse,
  JweServer,
  type JweServerOptions,
  type SizeLimit,
  sealResponse,
} from '@jwe-transport/server-core';
import {
  type DefaultBodyType,
  type HttpCustomPredicate,
  type HttpHandler,
  type HttpRequestResolverExtras,
  http,
  type Path,
  type PathParams,
  type RequestHandlerOptions,
  type ResponseResolverInfo,
  type StrictResponse,
} from 'msw';
import { type JweRequestFacts, openExchange } from './open-request.js';

export interface JweHttpOptions extends JweServerOptions {
  /**
   * Largest encrypted request body, in bytes or as `'10mb'`. Default `'50mb'`: a mock holds each
   * body in memory, and test fixtures are small.
   */
  limit?: SizeLimit;
  /**
   * The member of a sealed `{"file": "<base64>"}` upload. Such a body reaches the resolver as the
   * file's bytes (`await request.arrayBuffer()`, `Content-Type: application/octet-stream`).
   * `false` hands every sealed body over as JSON. Default `'file'`.
   */
  fileField?: string | false;
}

/** What a jweHttp resolver receives: MSW's own arguments, with the opened request and `jwe`. */
export type JweResolverInfo<
  Params extends PathParams<keyof Params>,
  RequestBodyType extends DefaultBodyType,
> = ResponseResolverInfo<HttpRequestResolverExtras<Params> & { jwe: JweRequestFacts }, RequestBodyType>;

/** A response, nothing (fall through to the next handler), or a promise of either. */
export type JweResolverResult<ResponseBodyType extends DefaultBodyType> =
  | Response
  | StrictResponse<ResponseBodyType>
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: as MSW's own resolvers, a resolver may return nothing.
  | void;

export type JweResponseResolver<
  Params extends PathParams<keyof Params> = PathParams,
  RequestBodyType extends DefaultBodyType = DefaultBodyType,
  ResponseBodyType extends DefaultBodyType = DefaultBodyType,
> = (
  info: JweResolverInfo<Params, RequestBodyType>,
) => JweResolverResult<ResponseBodyType> | Promise<JweResolverResult<ResponseBodyType>>;

/** Which requests a handler takes: a path, URL or RegExp, or a predicate, as in MSW. */
export type JweRequestPredicate<Params extends PathParams> = Path | HttpCustomPredicate<Params>;

export type JweHttpRequestHandler = <
  Params extends PathParams<keyof Params> = PathParams,
  RequestBodyType extends DefaultBodyType = DefaultBodyType,
  ResponseBodyType extends DefaultBodyType = DefaultBodyType,
>(
  predicate: JweRequestPredicate<Params>,
  resolver: JweResponseResolver<Params, RequestBodyType, ResponseBodyType>,
  options?: RequestHandlerOptions,
) => HttpHandler;

/** The same methods as MSW's `http`, each speaking the encrypted wire. */
export interface JweHttp {
  all: JweHttpRequestHandler;
  head: JweHttpRequestHandler;
  get: JweHttpRequestHandler;
  post: JweHttpRequestHandler;
  put: JweHttpRequestHandler;
  delete: JweHttpRequestHandler;
  patch: JweHttpRequestHandler;
  options: JweHttpRequestHandler;
  /** The engine that opens and seals, shared by every handler of this `jweHttp`. */
  readonly server: JweServer;
}

const METHODS = ['all', 'head', 'get', 'post', 'put', 'delete', 'patch', 'options'] as const;

/** MSW's `passthrough()` answer: it must reach MSW untouched. */
const isPassthrough = (response: Response) => response.headers.get('x-msw-intention') === 'passthrough';

/** An error that names its own HTTP status (JweHttpError, http-errors): answered as our servers do. */
function hasHttpStatus(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = status ?? statusCode;
  return typeof value === 'number' && value >= 400 && value < 600;
}

function isIterator(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Response) &&
    (Symbol.iterator in value || Symbol.asyncIterator in value)
  );
}

async function answer(server: JweServer, response: Response, opened: Opened): Promise<Response> {
  return isPassthrough(response) ? response : sealResponse(server, response, opened);
}

/**
 * MSW request handlers that speak the wire: `createJweHttp({ keys: { [kid]: key } })` returns an
 * object shaped like MSW's `http`. A sealed request reaches the resolver opened (`await
 * request.json()` is the plaintext; a file upload is its bytes) and its JSON answers, errors
 * included, leave sealed under the request's kid with `X-Encryption: JWE`. Plain requests are
 * handled as by `http` (answers stay plain). A request that does not open gets the 4xx JSON error
 * our servers give, without reaching the resolver.
 */
export function createJweHttp(options: JweHttpOptions): JweHttp {
  const server = new JweServer({ ...options, limit: options.limit ?? '50mb' });
  const fileField = options.fileField ?? 'file';

  const wrap =
    // biome-ignore lint/suspicious/noExplicitAny: MSW's own handlers take their resolvers as any.
      (resolver: JweResponseResolver<any, any, any>) =>
      async (
        info: ResponseResolverInfo<HttpRequestResolverExtras<PathParams>>,
      ): Promise<Response | undefined> => {
        let exchange: Awaited<ReturnType<typeof openExchange>>;
        try {
          exchange = await openExchange(server, info.request, fileField);
        } catch (error) {
          return errorResponse(server, error);
        }
        let result: unknown;
        try {
          result = await resolver({
            ...info,
            request: exchange.request,
            jwe: exchange.facts,
          } as JweResolverInfo<PathParams, DefaultBodyType>);
        } catch (error) {
          // MSW lets a resolver throw a response to short-circuit; it leaves sealed like any answer.
          if (error instanceof Response) return answer(server, error, exchange.opened);
          if (hasHttpStatus(error)) return errorResponse(server, error, exchange.opened);
          // Anything else is a bug in the test: MSW reports it as it does for its own handlers.
          throw error;
        }
        if (result === undefined || result === null) return undefined;
        if (isIterator(result)) {
          throw new TypeError(
            'jweHttp: generator resolvers are not supported; return one response per request (use { once: true } handlers for sequences).',
          );
        }
        if (!(result instanceof Response)) {
          throw new TypeError(
            'jweHttp: a resolver must return a Response (HttpResponse.json(...)) or nothing.',
          );
        }
        return answer(server, result, exchange.opened);
      };

  const jweHttp = { server } as JweHttp;
  for (const method of METHODS) {
    jweHttp[method] = ((predicate, resolver, handlerOptions) =>
      http[method](predicate, wrap(resolver), handlerOptions)) as JweHttpRequestHandler;
  }
  return jweHttp;
}
