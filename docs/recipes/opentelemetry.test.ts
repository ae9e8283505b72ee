import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createJweFetch } from '@jwe-transport/client-core';
import { withJwe } from '@jwe-transport/server-core';
import { SpanStatusCode } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { instrumentJweTransport, UNKNOWN_KID } from './opentelemetry.js';

const OLD_KEY = 'abcdefghijklmnop';
const NEW_KEY = 'Q7w!x9z#m2p$r5t&';

/** A reader collected on demand: no export timer in the test. */
class OnDemandReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function serveFetch(fetch: (request: Request) => Promise<Response>): Promise<string> {
  return new Promise((resolve) => {
    const server = serve(
      { fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false },
      (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
    ) as Server;
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
    );
  });
}

async function setUp() {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  // The service's live keyring: rotation edits it while the server runs.
  const keyring = new Map<string, string>([['2025-old', OLD_KEY]]);
  const stop = instrumentJweTransport({
    knownKids: (kid) => keyring.has(kid),
    tracer: tracerProvider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
  });
  cleanups.push(
    stop,
    () => meterProvider.shutdown(),
    () => tracerProvider.shutdown(),
  );
  const url = await serveFetch(
    withJwe(async (request: Request) => Response.json({ got: await request.json() }), {
      keys: (kid) => (kid === undefined ? undefined : keyring.get(kid)),
    }),
  );
  const send = (key: string, kid: string) =>
    createJweFetch({ key, kid })(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"n":1}',
    }).catch((error: unknown) => error);

  /** Server-side opens counted so far, as `kid outcome [code]` → count. */
  async function serverOpens(): Promise<Record<string, number>> {
    const { resourceMetrics } = await reader.collect();
    const counts: Record<string, number> = {};
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        if (metric.descriptor.name !== 'jwe_transport.opens') continue;
        for (const point of metric.dataPoints) {
          const a = point.attributes;
          if (a['jwe.side'] !== 'server') continue;
          const label = [a['jwe.kid'], a['jwe.outcome'], a['jwe.code']].filter(Boolean).join(' ');
          counts[label] = point.value as number;
        }
      }
    }
    return counts;
  }
  return { spans, keyring, send, serverOpens };
}

describe('the OpenTelemetry recipe', () => {
  it('counts opens per known kid and outcome through a key rotation, and made-up kids as one "unknown"', async () => {
    const { keyring, send, serverOpens } = await setUp();
    const times = async (n: number, key: string, kid: string) => {
      for (let i = 0; i < n; i++) await send(key, kid);
    };

    // Before: every partner on the old key.
    await times(3, OLD_KEY, '2025-old');
    expect(await serverOpens()).toEqual({ '2025-old opened': 3 });

    // Rotation: the new key joins the keyring; partners move over one by one.
    keyring.set('2026-new', NEW_KEY);
    await times(1, OLD_KEY, '2025-old');
    await times(4, NEW_KEY, '2026-new');
    expect(await serverOpens()).toEqual({ '2025-old opened': 4, '2026-new opened': 4 });

    // The old kid has drained: no opens since the last look, so it is retired.
    await times(2, NEW_KEY, '2026-new');
    const drained = await serverOpens();
    expect(drained['2025-old opened']).toBe(4);
    expect(drained['2026-new opened']).toBe(6);
    keyring.delete('2025-old');

    // A straggler on the retired kid, and a flood of invented kids: one "unknown" series for all.
    await times(1, OLD_KEY, '2025-old');
    for (let i = 0; i < 20; i++) await send(NEW_KEY, `made-up-${i}`);
    // A known kid with the wrong key keeps its label: the partner to call is known.
    await times(1, OLD_KEY, '2026-new');
    const after = await serverOpens();
    expect(after).toEqual({
      '2025-old opened': 4,
      '2026-new opened': 6,
      [`${UNKNOWN_KID} refused ERR_KEY_UNKNOWN`]: 21,
      '2026-new refused ERR_JWE_DECRYPTION_FAILED': 1,
    });
  });

  it('turns each open and seal into a span with side, kid, sizes and, on failure, the code as its status', async () => {
    const { spans, send } = await setUp();
    await send(OLD_KEY, '2025-old');
    const ok = spans.getFinishedSpans().map((span) => [span.name, span.attributes['jwe.side']]);
    // Client seal, server open, server seal, client open: in the order they finished.
    expect(ok).toEqual([
      ['jwe-transport seal', 'client'],
      ['jwe-transport open', 'server'],
      ['jwe-transport seal', 'server'],
      ['jwe-transport open', 'client'],
    ]);
    const serverOpen = spans.getFinishedSpans()[1];
    expect(serverOpen?.attributes).toMatchObject({
      'jwe.kid': '2025-old',
      'jwe.outcome': 'opened',
      'jwe.plaintext_bytes': 7,
    });
    expect(serverOpen?.attributes['jwe.envelope_bytes']).toBeGreaterThan(7);
    expect(serverOpen?.status.code).toBe(SpanStatusCode.UNSET);

    spans.reset();
    await send(NEW_KEY, '2025-old');
    const refused = spans.getFinishedSpans().find((span) => span.attributes['jwe.side'] === 'server');
    expect(refused?.attributes).toMatchObject({
      'jwe.kid': '2025-old',
      'jwe.outcome': 'refused',
      'jwe.code': 'ERR_JWE_DECRYPTION_FAILED',
    });
    expect(refused?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ERR_JWE_DECRYPTION_FAILED' });
    // Nothing of either key in any span.
    const text = JSON.stringify(spans.getFinishedSpans().map((span) => [span.attributes, span.status]));
    expect(text).not.toContain(OLD_KEY);
    expect(text).not.toContain(NEW_KEY);
  });
});
