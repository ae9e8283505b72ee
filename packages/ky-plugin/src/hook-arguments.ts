/** What the hooks read from ky's normalized options (the same names in ky 1.x and 2.x). */
export interface KyOptionsView {
  body?: unknown;
  context?: unknown;
  fetch?: unknown;
}

export interface HookArguments {
  request: Request;
  options: KyOptionsView;
  response?: Response;
}

function isRequest(value: unknown): value is Request {
  return value instanceof Request || Object.prototype.toString.call(value) === '[object Request]';
}

/**
 * ky 1.x calls hooks positionally: `(request, options, state)` and `(request, options, response, state)`;
 * ky 2.x passes one state object `{ request, options, response?, retryCount }`. Tell them apart by
 * the first argument, not by a version number.
 */
export function hookArguments(args: unknown[]): HookArguments {
  const [first, second, third] = args;
  if (isRequest(first)) {
    const view: HookArguments = { request: first, options: (second ?? {}) as KyOptionsView };
    if (third instanceof Response) view.response = third;
    return view;
  }
  const state = first as { request?: unknown; options?: KyOptionsView; response?: Response } | undefined;
  if (!state || !isRequest(state.request)) {
    throw new TypeError(
      'jwe(): these hooks are for ky 1.x or 2.x; they were called with unexpected arguments.',
    );
  }
  const view: HookArguments = { request: state.request, options: state.options ?? {} };
  if (state.response) view.response = state.response;
  return view;
}
