import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { fileURLToPath } from 'node:url';
import { recordChannel } from '@jwe-transport/test-support/diagnostics';
import { describe, expect, it } from 'vitest';
import { byteSize, type JweTraceContext, traceKid, traceOpen, traceSeal } from '../src/diagnostics/index.js';
import { JweError } from '../src/errors.js';

/** The events a TracingChannel published, in order, while `run` ran (a failure of `run` is what is traced). */
async function eventsOf(name: string, run: () => unknown): Promise<string[]> {
  const recording = recordChannel(name);
  try {
    await run();
  } catch {
    // The failure itself is what is traced.
  } finally {
    recording.stop();
  }
  return recording.events.map(({ event }) => event);
}

function boom(): never {
  throw new JweError('ERR_JWE_INVALID', 'bad');
}

type Native = ReturnType<typeof tracingChannel>;
type Case = [string, () => unknown, (channel: Native, fn: () => unknown) => unknown];
const traceSync = (channel: Native, fn: () => unknown) => channel.traceSync(fn);
const tracePromise = (channel: Native, fn: () => unknown) =>
  channel.tracePromise(fn as () => Promise<unknown>);
const CASES: Case[] = [
  ['a synchronous result', () => 'ok', traceSync],
  ['a synchronous throw', boom, traceSync],
  ['a resolved promise', async () => 'ok', tracePromise],
  ['a rejected promise', async () => boom(), tracePromise],
];

describe('the jwe-transport TracingChannels', () => {
  it.each(CASES)('publishes %s in the order Node publishes it itself', async (_case, fn, native) => {
    const ours = await eventsOf('jwe-transport:seal', () =>
      traceSeal('server', 'k', 'x', fn as () => unknown),
    );
    const nodes = await eventsOf('test:native', () =>
      native(tracingChannel('test:native'), fn as () => never),
    );
    expect(ours).toEqual(nodes);
    expect(ours.length).toBeGreaterThanOrEqual(2);
  });

  it('hands no context and publishes nothing when nobody listens, and starts as soon as someone does', async () => {
    let given: JweTraceContext | undefined | 'not called' = 'not called';
    traceOpen('client', '{}', (context) => {
      given = context;
    });
    expect(given).toBeUndefined();

    // A subscriber of one sub-channel is enough (Bun has no TracingChannel-wide hasSubscribers).
    const ends: JweTraceContext[] = [];
    const onEnd = (message: unknown) => ends.push(message as JweTraceContext);
    subscribe('tracing:jwe-transport:open:end', onEnd);
    try {
      traceOpen('client', '{"a":"é"}', (context) => {
        given = context;
      });
    } finally {
      unsubscribe('tracing:jwe-transport:open:end', onEnd);
    }
    expect(given).toBeDefined();
    expect(ends).toEqual([
      expect.objectContaining({ operation: 'open', side: 'client', envelopeBytes: 10, outcome: 'opened' }),
    ]);
  });

  it('classifies failures: refused for the input, failed for this side (an unusable key, a 5xx, no code)', async () => {
    const outcomes: unknown[] = [];
    const onError = (message: unknown) => {
      const { outcome, code } = message as JweTraceContext;
      outcomes.push([outcome, code]);
    };
    subscribe('tracing:jwe-transport:open:error', onError);
    const fail = (error: unknown) =>
      traceOpen('server', undefined, () => {
        throw error;
      });
    try {
      for (const error of [
        new JweError('ERR_KEY_UNKNOWN', 'x'),
        Object.assign(new JweError('ERR_JWE_DECRYPTION_FAILED', 'x'), { statusCode: 400 }),
        new JweError('ERR_KEY_INVALID', 'x'),
        Object.assign(new Error('x'), { code: 'ERR_INTERNAL', statusCode: 500 }),
        new TypeError('resolver crashed'),
      ]) {
        expect(() => fail(error)).toThrow(error);
      }
    } finally {
      unsubscribe('tracing:jwe-transport:open:error', onError);
    }
    expect(outcomes).toEqual([
      ['refused', 'ERR_KEY_UNKNOWN'],
      ['refused', 'ERR_JWE_DECRYPTION_FAILED'],
      ['failed', 'ERR_KEY_INVALID'],
      ['failed', 'ERR_INTERNAL'],
      ['failed', undefined],
    ]);
  });

  it('enters stores bound to the start channel for the whole operation, as tracingChannel() does', async () => {
    const store = new AsyncLocalStorage<string>();
    const channel = tracingChannel('jwe-transport:seal');
    channel.start.bindStore(store, (context) => `sealing for ${(context as JweTraceContext).kid}`);
    try {
      const inside = await traceSeal('client', 'kid-7', 'x', async () => {
        await Promise.resolve();
        return store.getStore();
      });
      expect(inside).toBe('sealing for kid-7');
    } finally {
      channel.start.unbindStore(store);
    }
  });

  it('cuts kids to 64 characters and counts UTF-8 bytes as the encoder does', () => {
    expect(traceKid('k'.repeat(300))).toBe('k'.repeat(64));
    expect(traceKid(42)).toBeUndefined();
    for (const text of ['', 'ascii', 'é', '€uro', '😀 and 𝄞', '\ud800 lone', 'end \udfff']) {
      expect(byteSize(text)).toBe(new TextEncoder().encode(text).length);
    }
    expect(byteSize(new Uint8Array(7))).toBe(7);
  });

  it('is a no-op on a runtime without process.getBuiltinModule (the built package, in a child process)', () => {
    const run = (remove: boolean) => {
      const code = `
        const dc = require('node:diagnostics_channel');
        ${remove ? 'delete process.getBuiltinModule;' : ''}
        const events = [];
        dc.subscribe('tracing:jwe-transport:seal:start', () => events.push('start'));
        const { traceSeal } = require('@jwe-transport/codec/diagnostics');
        let seen = 'not called';
        const out = traceSeal('client', 'k', 'x', (context) => { seen = context; return 'sealed'; });
        console.log(JSON.stringify({ out, context: seen === undefined ? 'none' : 'given', events }));
      `;
      const output = execFileSync(process.execPath, ['-e', code], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        encoding: 'utf8',
      });
      return JSON.parse(output);
    };
    expect(run(true)).toEqual({ out: 'sealed', context: 'none', events: [] });
    // The same script with the module at hand does publish: the difference is getBuiltinModule.
    expect(run(false)).toEqual({ out: 'sealed', context: 'given', events: ['start'] });
  });
});
