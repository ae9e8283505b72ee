import type { ResponseKey } from './keys.js';
import type { JweRequestInfo } from './request-info.js';

/** An opened request: what happened to it, and the key its answers are sealed with (if any). */
export interface Opened {
  readonly info: JweRequestInfo;
  /** Internal to adapters: never hand it to route handlers. */
  readonly responseKey: ResponseKey | undefined;
}

/** The result of opening an envelope: the authenticated plaintext beside the request's state. */
export interface OpenedEnvelope extends Opened {
  readonly plaintext: Uint8Array;
}
