import type { IncomingHttpHeaders } from 'node:http';
import { DECRYPTED_HEADER, type DecryptionInfo } from '@jwe-transport/client-core';
import {
  ENVELOPE_ONLY_HEADERS,
  type JweClient,
  markDecryptedHeaders,
  type ResponseContext,
} from '@jwe-transport/client-core/adapter';
import type { Dispatcher } from 'undici';
import { ForwardingController } from './controller.js';
import { RecordHeaders } from './record-headers.js';

/**
 * The headers without a `x-jwe-decrypted` that came from the network: only this interceptor may
 * say an answer was decrypted, so a server or proxy cannot pass plaintext off as opened.
 */
function withoutForgedMarker(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  if (!(DECRYPTED_HEADER in headers)) return headers;
  const { [DECRYPTED_HEADER]: _forged, ...rest } = headers;
  return rest;
}

const ENVELOPE_ONLY = new Set(ENVELOPE_ONLY_HEADERS);

/**
 * The decrypted response's header record: a copy built without the envelope's own headers
 * rather than a copy they are deleted from, since `delete` leaves the record slow to read for
 * undici's wrappers below (the bench's undici rows showed it). Names in another case are still
 * dropped, by `markDecryptedHeaders`.
 */
function decryptedHeaders(record: IncomingHttpHeaders, info: DecryptionInfo): IncomingHttpHeaders {
  const copy: IncomingHttpHeaders = {};
  for (const name in record) if (!ENVELOPE_ONLY.has(name)) copy[name] = record[name];
  return markDecryptedHeaders(new RecordHeaders(copy), info).record;
}

/** A held response once opened: what the handler below receives instead. */
interface Opened {
  headers: IncomingHttpHeaders;
  body: Uint8Array;
}

/**
 * Sits between the connection and the caller's handler. Responses the client core does not need
 * to read stream through untouched. A held response is collected whole (an envelope
 * authenticates only at its end, so no byte of it may reach the caller before the tag has
 * verified), opened, and replayed to the caller as if it had arrived that way; an opening
 * failure reaches the caller as the request's error.
 */
export class OpeningHandler implements Dispatcher.DispatchHandler {
  readonly #target: Dispatcher.DispatchHandler;
  readonly #client: JweClient;
  readonly #context: ResponseContext;
  readonly #controller = new ForwardingController();
  #held: { status: number; statusText: string; headers: RecordHeaders } | undefined;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(target: Dispatcher.DispatchHandler, client: JweClient, context: ResponseContext) {
    this.#target = target;
    this.#client = client;
    this.#context = context;
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
    const view = new RecordHeaders(headers);
    // 1xx interim responses come before the real one and have no body to open.
    if (status < 200 || !this.#client.needsBody({ status, headers: view }, this.#context)) {
      const kept = withoutForgedMarker(headers);
      if (kept !== headers) this.#controller.replaceRawHeaders(kept);
      this.#target.onResponseStart?.(this.#controller, status, kept, statusText);
      return;
    }
    this.#held = { status, statusText: statusText ?? '', headers: view };
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
    if (this.#held === undefined) {
      this.#target.onResponseEnd?.(this.#controller, trailers);
      return;
    }
    const body = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks, this.#size);
    this.#chunks = [];
    this.#controller.finish();
    this.#open(body).then(
      (opened) => this.#replay(opened, trailers),
      (error: unknown) => this.#fail(error),
    );
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.#controller.target ??= controller;
    this.#target.onResponseError?.(this.#controller, error);
  }

  /** Decrypts or checks the held response; rejects with the error to report instead. */
  async #open(body: Uint8Array): Promise<Opened> {
    const { status, statusText, headers } = this.#held!;
    const context = this.#context;
    const head = { status, statusText, headers, url: context.url ?? '' };
    const opened = await this.#client.openBody(body, head, context);
    if (!opened.decrypted) return { headers: withoutForgedMarker(headers.record), body };
    return { headers: decryptedHeaders(headers.record, opened.info), body: opened.plaintext };
  }

  #replay(opened: Opened, trailers: IncomingHttpHeaders): void {
    const controller = this.#controller;
    const { status, statusText } = this.#held!;
    try {
      controller.replaceRawHeaders(opened.headers);
      this.#target.onResponseStart?.(controller, status, opened.headers, statusText);
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
