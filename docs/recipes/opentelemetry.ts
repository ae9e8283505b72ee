/**
 * jwe-transport → OpenTelemetry: a span per envelope opened or sealed, and a counter of opens
 * per `kid` and outcome. Copy this file into your service; it needs only `@opentelemetry/api`
 * (your SDK setup supplies the exporters) and Node's `diagnostics_channel`.
 *
 *   const stop = instrumentJweTransport({ knownKids: (kid) => kid in keys });
 *
 * See docs/recipes/opentelemetry.md.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import type { JweTraceContext } from '@jwe-transport/codec';
import {
  type Attributes,
  type Meter,
  metrics,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';

export interface JweOtelOptions {
  /**
   * The kids that may appear as metric labels: your keyring's. Every other kid (made up, retired,
   * missing) is counted as `unknown`, so a flood of invented kids cannot multiply the series.
   * Checked at each open, so a live keyring shows a rotation as it happens.
   */
  knownKids: Iterable<string> | ((kid: string) => boolean);
  /** Default: the global tracer provider's `jwe-transport` tracer. */
  tracer?: Tracer;
  /** Default: the global meter provider's `jwe-transport` meter. */
  meter?: Meter;
}

/** Label of every kid the keyring does not know. */
export const UNKNOWN_KID = 'unknown';

const CHANNELS = ['jwe-transport:open', 'jwe-transport:seal'] as const;

/** Subscribes to both channels; returns the function that unsubscribes. */
export function instrumentJweTransport(options: JweOtelOptions): () => void {
  const tracer = options.tracer ?? trace.getTracer('jwe-transport');
  const meter = options.meter ?? metrics.getMeter('jwe-transport');
  const known = options.knownKids;
  const isKnown =
    typeof known === 'function'
      ? known
      : (
          (set: Set<string>) => (kid: string) =>
            set.has(kid)
        )(new Set(known));
  const opens = meter.createCounter('jwe_transport.opens', {
    description: 'Envelopes opened, by side, kid (known kids only) and outcome',
  });
  const spans = new WeakMap<object, Span>();

  const finish = (context: JweTraceContext) => {
    const span = spans.get(context);
    if (span === undefined) return;
    spans.delete(context);
    span.setAttributes(sizes(context));
    span.setAttribute('jwe.outcome', context.outcome ?? 'unknown');
    if (context.code !== undefined) {
      // The code, never the error object: its cause may describe inputs you do not want in traces.
      span.setAttribute('jwe.code', context.code);
      span.setStatus({ code: SpanStatusCode.ERROR, message: context.code });
    }
    span.end();
    if (context.operation === 'open') {
      const kid = context.kid !== undefined && isKnown(context.kid) ? context.kid : UNKNOWN_KID;
      const labels: Attributes = {
        'jwe.side': context.side,
        'jwe.kid': kid,
        'jwe.outcome': context.outcome ?? '',
      };
      if (context.code !== undefined) labels['jwe.code'] = context.code;
      opens.add(1, labels);
    }
  };

  const handlers = {
    start(message: unknown) {
      const context = message as JweTraceContext;
      const span = tracer.startSpan(`jwe-transport ${context.operation}`, {
        // The kid here is the sender's claim, cut to 64 characters: fine on one span, never a label.
        attributes: { 'jwe.side': context.side, ...(context.kid ? { 'jwe.kid': context.kid } : {}) },
      });
      spans.set(context, span);
    },
    // Synchronous operations are over at `end` (their outcome is set); others at `asyncEnd`.
    end(message: unknown) {
      const context = message as JweTraceContext;
      if (context.outcome !== undefined) finish(context);
    },
    asyncStart() {},
    asyncEnd(message: unknown) {
      finish(message as JweTraceContext);
    },
    error() {},
  };
  for (const name of CHANNELS) tracingChannel(name).subscribe(handlers);
  return () => {
    for (const name of CHANNELS) tracingChannel(name).unsubscribe(handlers);
  };
}

function sizes(context: JweTraceContext): Attributes {
  const attributes: Attributes = {};
  if (context.kid !== undefined) attributes['jwe.kid'] = context.kid;
  if (context.envelopeBytes !== undefined) attributes['jwe.envelope_bytes'] = context.envelopeBytes;
  if (context.plaintextBytes !== undefined) attributes['jwe.plaintext_bytes'] = context.plaintextBytes;
  if (context.streamed) attributes['jwe.streamed'] = true;
  return attributes;
}
