import type { Dispatcher } from 'undici';

type RawHeaders = NonNullable<Dispatcher.DispatchController['rawHeaders']> | null;

/**
 * The controller handed to the handler below this interceptor. It forwards flow control to the
 * connection's controller and lets the interceptor replace the raw headers: undici 8's wrapper
 * for old-style handlers (Node's own fetch) reads `rawHeaders` from the controller rather than
 * the headers it is given, so a decrypted response must show its own there.
 */
export class ForwardingController implements Dispatcher.DispatchController {
  target: Dispatcher.DispatchController | undefined;
  #rawHeaders: RawHeaders | undefined;
  #finished = false;

  get aborted(): boolean {
    return this.target?.aborted ?? false;
  }
  get paused(): boolean {
    return !this.#finished && (this.target?.paused ?? false);
  }
  get reason(): Error | null {
    return this.target?.reason ?? null;
  }
  get rawHeaders(): RawHeaders {
    return this.#rawHeaders ?? this.target?.rawHeaders ?? null;
  }
  set rawHeaders(value: RawHeaders) {
    this.#rawHeaders = value;
  }
  get rawTrailers(): RawHeaders {
    return this.target?.rawTrailers ?? null;
  }

  /** After the whole response has arrived, flow control has nothing left to act on. */
  finish(): void {
    this.#finished = true;
  }

  abort(reason: Error): void {
    if (!this.#finished) this.target?.abort(reason);
  }
  pause(): void {
    if (!this.#finished) this.target?.pause();
  }
  resume(): void {
    if (!this.#finished) this.target?.resume();
  }
}
