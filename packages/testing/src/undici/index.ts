/**
 * `@jwe-transport/testing/undici`: the same MSW handlers for undici's `request()`, which MSW does
 * not see through a composed dispatcher. Node only; needs `undici` (7 or 8).
 * @packageDocumentation
 */
import { getResponse, type RequestHandler } from 'msw';
import { type Dispatcher, MockAgent } from 'undici';
import { replyHeaders, toRequest } from '../dispatch-request.js';

export type JweMockAgentOptions = MockAgent.Options;

const anything = () => true;

/**
 * A `MockAgent` that answers from MSW request handlers (`createJweHttp`'s or MSW's own `http`):
 * each dispatch becomes a fetch `Request`, the handlers answer it, and MockAgent plays the answer
 * back to undici. Requests no handler answers go on to this agent's own interceptors
 * (`agent.get(origin).intercept(...)`) and are refused with MockAgent's `MockNotMatchedError`
 * after that: real connections are off unless you call `enableNetConnect()`.
 */
export class JweMockAgent extends MockAgent {
  #handlers: RequestHandler[];
  readonly #initial: RequestHandler[];
  /** Plays the handlers' answers: a private agent, so no interceptor of yours can take them. */
  readonly #answers = new MockAgent();

  constructor(handlers: readonly RequestHandler[], options?: JweMockAgentOptions) {
    super(options);
    this.#initial = [...handlers];
    this.#handlers = [...handlers];
    this.disableNetConnect();
    this.#answers.disableNetConnect();
  }

  /** Prepends handlers, as `server.use()` does in MSW. */
  use(...handlers: RequestHandler[]): void {
    this.#handlers = [...handlers, ...this.#handlers];
  }

  /** Back to the handlers given at creation (or to `handlers`), as `server.resetHandlers()`. */
  resetHandlers(...handlers: RequestHandler[]): void {
    this.#handlers = handlers.length > 0 ? [...handlers] : [...this.#initial];
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    this.#answer(opts, handler).catch((error: unknown) => {
      // A failure of the handlers themselves (a resolver that threw) reaches the caller as an error.
      const pool = this.#answers.get(String(opts.origin));
      pool.intercept({ path: anything, method: anything }).replyWithError(error as Error);
      this.#answers.dispatch(opts, handler);
    });
    return true;
  }

  async #answer(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): Promise<void> {
    const { request, body } = await toRequest(opts);
    const read = body === undefined ? { ...opts, body: null } : { ...opts, body: Buffer.from(body) };
    const response = await getResponse(this.#handlers, request);
    // No handler answered (or one said passthrough()): MockAgent's own rules apply.
    if (response === undefined || response.headers.get('x-msw-intention') === 'passthrough') {
      super.dispatch(read, handler);
      return;
    }
    const data = Buffer.from(await response.arrayBuffer());
    // Registered and consumed in the same synchronous step: this answer goes to this dispatch.
    this.#answers
      .get(String(opts.origin))
      .intercept({ path: anything, method: anything })
      .reply(response.status, data, { headers: replyHeaders(response) });
    this.#answers.dispatch(read, handler);
  }

  override async close(): Promise<void> {
    await this.#answers.close();
    await super.close();
  }
}

/**
 * The MSW handlers as an undici dispatcher: `createJweMockAgent([jweHttp.post(url, resolver)])`,
 * then compose the jwe interceptor on it (`agent.compose(jweInterceptor(...))`) and pass that as
 * `dispatcher` to `request()`, or set it as the global dispatcher.
 */
export function createJweMockAgent(
  handlers: readonly RequestHandler[],
  options?: JweMockAgentOptions,
): JweMockAgent {
  return new JweMockAgent(handlers, options);
}
