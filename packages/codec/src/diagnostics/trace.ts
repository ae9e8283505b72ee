import type { KeyResolver } from '../key.js';
import {
  type JweChannelName,
  type JweTraceContext,
  type JweTraceOutcome,
  OPEN_CHANNEL,
  SEAL_CHANNEL,
  TRACE_KID_MAX,
} from './channels.js';
import { type Channel, diagnosticsChannel } from './load.js';

/** The five channels of one TracingChannel, looked up by name as `tracingChannel(name)` names them. */
class TraceChannels {
  readonly start: Channel;
  readonly end: Channel;
  readonly asyncStart: Channel;
  readonly asyncEnd: Channel;
  readonly error: Channel;

  constructor(lookUp: (name: string) => Channel, name: JweChannelName) {
    this.start = lookUp(`tracing:${name}:start`);
    this.end = lookUp(`tracing:${name}:end`);
    this.asyncStart = lookUp(`tracing:${name}:asyncStart`);
    this.asyncEnd = lookUp(`tracing:${name}:asyncEnd`);
    this.error = lookUp(`tracing:${name}:error`);
  }

  // Each sub-channel on its own: Bun's TracingChannel has no `hasSubscribers` of its own, and a
  // subscriber may listen to one event only (`tracing:jwe-transport:open:error`).
  get active(): boolean {
    return (
      this.start.hasSubscribers ||
      this.end.hasSubscribers ||
      this.asyncStart.hasSubscribers ||
      this.asyncEnd.hasSubscribers ||
      this.error.hasSubscribers
    );
  }
}

const channels = new Map<JweChannelName, TraceChannels | null>();

/** The channels of `name` when anyone listens to one of them, else `undefined` (the common case). */
function listening(name: JweChannelName): TraceChannels | undefined {
  let found = channels.get(name);
  if (found === undefined) {
    const dc = diagnosticsChannel();
    found = dc === null ? null : new TraceChannels((id) => dc.channel(id), name);
    channels.set(name, found);
  }
  return found?.active ? found : undefined;
}

export type TraceSide = JweTraceContext['side'];

/** What is known of an operation when it ends well. */
export interface TraceFacts {
  kid?: string | undefined;
  envelopeBytes?: number | undefined;
  plaintextBytes?: number | undefined;
  streamed?: boolean;
}

/** Cuts an unauthenticated `kid` to {@link TRACE_KID_MAX} characters. */
export function traceKid(kid: unknown): string | undefined {
  return typeof kid === 'string' ? kid.slice(0, TRACE_KID_MAX) : undefined;
}

/** UTF-8 size of text or bytes, without encoding the text. */
export function byteSize(value: Uint8Array | string | undefined | null): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') return value.byteLength;
  let size = value.length;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size += 2; // a pair of 2 units is 4 bytes
        i++;
        continue;
      }
    }
    if (unit >= 0x800) size += 2;
    else if (unit >= 0x80) size += 1;
  }
  return size;
}

function apply(context: JweTraceContext, facts: TraceFacts | undefined): void {
  if (facts === undefined) return;
  if (facts.kid !== undefined) context.kid = traceKid(facts.kid);
  if (facts.envelopeBytes !== undefined) context.envelopeBytes = facts.envelopeBytes;
  if (facts.plaintextBytes !== undefined) context.plaintextBytes = facts.plaintextBytes;
  if (facts.streamed !== undefined) context.streamed = facts.streamed;
}

function outcomeOf(error: unknown): { outcome: JweTraceOutcome; code: string | undefined } {
  const { code, statusCode } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    statusCode?: unknown;
  };
  if (typeof code !== 'string') return { outcome: 'failed', code: undefined };
  // A server's 5xx and an unusable key of our own are this side's problem, not the input's.
  const ours = code === 'ERR_KEY_INVALID' || (typeof statusCode === 'number' && statusCode >= 500);
  return { outcome: ours ? 'failed' : 'refused', code };
}

function fail(channels: TraceChannels, context: JweTraceContext, error: unknown): void {
  const { outcome, code } = outcomeOf(error);
  context.outcome = outcome;
  context.code = code;
  context.error = error;
  channels.error.publish(context);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Runs `run` as a TracingChannel would (`traceSync` for a plain value, `tracePromise` for a
 * promise): start, [error], end, then asyncStart and asyncEnd once a promise settles. Its own
 * code rather than `tracePromise`: that one puts the result, which holds plaintext, on the context.
 */
function traced<T>(
  channels: TraceChannels,
  context: JweTraceContext,
  success: JweTraceOutcome,
  run: (context: JweTraceContext) => T,
  describe: ((result: Awaited<T>) => TraceFacts | undefined) | undefined,
): T {
  const settle = (result: Awaited<T>) => {
    apply(context, describe?.(result));
    context.outcome = success;
  };
  const body = (): T => {
    let result: T;
    try {
      result = run(context);
    } catch (error) {
      fail(channels, context, error);
      channels.end.publish(context);
      throw error;
    }
    if (!isThenable(result)) {
      settle(result as Awaited<T>);
      channels.end.publish(context);
      return result;
    }
    const settled = Promise.resolve(result).then(
      (value) => {
        settle(value as Awaited<T>);
        channels.asyncStart.publish(context);
        channels.asyncEnd.publish(context);
        return value;
      },
      (error: unknown) => {
        fail(channels, context, error);
        channels.asyncStart.publish(context);
        channels.asyncEnd.publish(context);
        throw error;
      },
    );
    channels.end.publish(context);
    return settled as T;
  };
  // runStores lets subscribers bind an AsyncLocalStorage to `start`, as with tracingChannel().
  if (typeof channels.start.runStores === 'function') return channels.start.runStores(context, body);
  channels.start.publish(context);
  return body();
}

function newContext(operation: 'open' | 'seal', side: TraceSide, kid: string | undefined): JweTraceContext {
  return {
    operation,
    side,
    kid: traceKid(kid),
    envelopeBytes: undefined,
    plaintextBytes: undefined,
    streamed: false,
    outcome: undefined,
    code: undefined,
  };
}

/**
 * Opens an envelope under `jwe-transport:open` when anyone listens; otherwise only calls `open`
 * (no context, and no size is computed). `envelope` is the envelope as received, for its size.
 * `open` may note the `kid` once it is known (for example when the key resolver is asked) with
 * `context.kid = traceKid(kid)`; `context` is `undefined` when nobody listens. `describe` gives
 * what the result shows; it must never return plaintext.
 */
export function traceOpen<T>(
  side: TraceSide,
  envelope: Uint8Array | string | undefined,
  open: (context: JweTraceContext | undefined) => T,
  describe?: (result: Awaited<T>) => TraceFacts | undefined,
): T {
  const channels = listening(OPEN_CHANNEL);
  if (channels === undefined) return open(undefined);
  const context = newContext('open', side, undefined);
  context.envelopeBytes = byteSize(envelope);
  return traced(channels, context, 'opened', open, describe);
}

/**
 * Seals under `jwe-transport:seal` when anyone listens; otherwise only calls `seal`. `kid` is the
 * one the envelope gets, `plaintext` what is sealed (for its size; `undefined` for a stream).
 */
export function traceSeal<T>(
  side: TraceSide,
  kid: string | undefined,
  plaintext: Uint8Array | string | undefined,
  seal: (context: JweTraceContext | undefined) => T,
  describe?: (result: Awaited<T>) => TraceFacts | undefined,
): T {
  const channels = listening(SEAL_CHANNEL);
  if (channels === undefined) return seal(undefined);
  const context = newContext('seal', side, kid);
  context.plaintextBytes = byteSize(plaintext);
  return traced(channels, context, 'sealed', seal, describe);
}

/**
 * `resolve`, noting on `context` the `kid` it is asked for (capped), so a refusal (a wrong key,
 * an unknown `kid`) names the `kid` too. `resolve` itself when nobody listens.
 */
export function kidNotingResolver(context: JweTraceContext | undefined, resolve: KeyResolver): KeyResolver {
  if (context === undefined) return resolve;
  return (kid, header) => {
    context.kid = traceKid(kid);
    return resolve(kid, header);
  };
}
