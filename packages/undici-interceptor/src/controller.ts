import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

type RawHeaders = NonNullable<Dispatcher.DispatchController['rawHeaders']> | null;

function rawHeadersOf(headers: IncomingHttpHeaders): Buffer[] {
  const raw: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      raw.push(Buffer.from(name, 'latin1'), Buffer.from(item, 'latin1'));
    }
  }
  return raw;
}

/**
 * The controller handed to the handler below this interceptor. It forwards flow control to the
 * connection's controller and lets the interceptor replace the raw headers: undici 8's wrapper
 * for old-style handlers (Node's own fetch) reads `rawHeaders` from the controller rather than
 * the headers it is given, so a decrypted response must show its own there.
 */
export class ForwardingController implements Dispatcher.DispatchController {
  target: Dispatcher.DispatchController | undefined;
  #rawHeaders: RawHeaders | undefined;
  #replacedHeaders: IncomingHttpHeaders | undefined;
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
    if (this.#replacedHeaders !== undefined) {
      this.#rawHeaders = rawHeadersOf(this.#replacedHeaders);
      this.#replacedHeaders = undefined;
    }
    return this.#rawHeaders ?? this.target?.rawHeaders ?? null;
  }

  /** The headers the handler below is given instead; their raw form is built only if it is read. */
  replaceRawHeaders(headers: IncomingHttpHeaders): void {
    this.#rawHeaders = undefined;
    this.#replacedHeaders = headers;
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
