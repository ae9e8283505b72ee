import type { IncomingHttpHeaders } from 'node:http';
import { DECRYPTED_HEADER } from '@jwe-transport/client-core';
import type { Dispatcher } from 'undici';
import { ForwardingController } from './controller.js';

/** A whole response as it arrived, for the opener to judge and decrypt. */
export interface HeldResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
}

/** What the handler below receives instead: the opened response. */
export interface OpenedResponse {
  status: number;
  statusText: string;
  headers: IncomingHttpHeaders;
  body: Uint8Array;
}

export interface ResponsePlan {
  /** True when this response must be read whole and handed to `open` (it may be an envelope). */
  hold(status: number, headers: IncomingHttpHeaders): boolean;
  /** Decrypts or checks a held response; rejects with the error to report instead. */
  open(response: HeldResponse): Promise<OpenedResponse>;
}

/**
 * The headers without a `x-jwe-decrypted` that came from the network: only this interceptor may
 * say an answer was decrypted, so a server or proxy cannot pass plaintext off as opened.
 */
export function withoutForgedMarker(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  if (!(DECRYPTED_HEADER in headers)) return headers;
  const { [DECRYPTED_HEADER]: _forged, ...rest } = headers;
  return rest;
}

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
 * Sits between the connection and the caller's handler. Responses the plan does not hold stream
 * through untouched. A held response is collected whole (an envelope authenticates only at its
 * end, so no byte of it may reach the caller before the tag has verified), opened, and replayed
 * to the caller as if it had arrived that way; an opening failure reaches the caller as the
 * request's error.
 */
export class OpeningHandler implements Dispatcher.DispatchHandler {
  readonly #target: Dispatcher.DispatchHandler;
  readonly #plan: ResponsePlan;
  readonly #controller = new ForwardingController();
  #held: HeldResponse | undefined;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(target: Dispatcher.DispatchHandler, plan: ResponsePlan) {
    this.#target = target;
    this.#plan = plan;
  }

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.#controller.target = controller;
    this.#target.onRequestStart?.(this.#controller, context);
  }

  onRequestUpgrade(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
    socket: import('node:stream').Duplex,
  ): void {
    this.#controller.target = controller;
    this.#target.onRequestUpgrade?.(this.#controller, status, headers, socket);
  }

  onResponseStarted(): void {
    this.#target.onResponseStarted?.();
  }

  // undici 7 passes (chunkSize, totalBytesSent), undici 8 the chunk: forward whatever came.
  onBodySent(...args: unknown[]): void {
    (this.#target.onBodySent as ((...args: unknown[]) => void) | undefined)?.(...args);
  }

  onRequestSent(): void {
    (this.#target as { onRequestSent?: () => void }).onRequestSent?.();
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    status: number,
    headers: IncomingHttpHeaders,
    statusText?: string,
  ): void {
    this.#controller.target = controller;
    // 1xx interim responses come before the real one and have no body to open.
    if (status < 200 || !this.#plan.hold(status, headers)) {
      const kept = withoutForgedMarker(headers);
      if (kept !== headers) this.#controller.rawHeaders = rawHeadersOf(kept);
      this.#target.onResponseStart?.(this.#controller, status, kept, statusText);
      return;
    }
    this.#held = { status, statusText: statusText ?? '', headers, body: new Uint8Array(0) };
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#held === undefined) {
      this.#target.onResponseData?.(this.#controller, chunk);
      return;
    }
    this.#chunks.push(chunk);
    this.#size += chunk.length;
  }

  onResponseEnd(_controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    const held = this.#held;
    if (held === undefined) {
      this.#target.onResponseEnd?.(this.#controller, trailers);
      return;
    }
    held.body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#controller.finish();
    this.#plan.open(held).then(
      (opened) => this.#replay(opened, trailers),
      (error: unknown) => this.#fail(error),
    );
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#controller.target ??= controller;
    this.#target.onResponseError?.(this.#controller, error);
  }

  #replay(opened: OpenedResponse, trailers: IncomingHttpHeaders): void {
    const controller = this.#controller;
    try {
      controller.rawHeaders = rawHeadersOf(opened.headers);
      this.#target.onResponseStart?.(controller, opened.status, opened.headers, opened.statusText);
      if (opened.body.length > 0 && !controller.aborted) {
        this.#target.onResponseData?.(
          controller,
          Buffer.from(opened.body.buffer, opened.body.byteOffset, opened.body.length),
        );
      }
      this.#target.onResponseEnd?.(controller, trailers);
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    this.#target.onResponseError?.(
      this.#controller,
      error instanceof Error ? error : new Error(String(error)),
    );
  }
}
