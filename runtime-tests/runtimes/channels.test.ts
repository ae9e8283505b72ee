import { describe, expect, it } from 'vitest';
import { RUNTIMES, runScript } from '../support/runtimes.js';

interface ChannelsRun {
  getBuiltinModule: string;
  tracingChannelHasSubscribers: boolean | 'undefined';
  quietContext: string;
  events: [string, string | null, string | null][];
}

// What Node itself publishes for a traced promise that resolves, then one that rejects.
const EXPECTED_EVENTS = [
  ['start', null, null],
  ['end', null, null],
  ['asyncStart', 'opened', null],
  ['asyncEnd', 'opened', null],
  ['start', null, null],
  ['end', null, null],
  ['error', 'refused', 'ERR_JWE_DECRYPTION_FAILED'],
  ['asyncStart', 'refused', 'ERR_JWE_DECRYPTION_FAILED'],
  ['asyncEnd', 'refused', 'ERR_JWE_DECRYPTION_FAILED'],
];

describe.each(RUNTIMES)('the jwe-transport tracing channels on %s', (runtime) => {
  it('publish the events Node publishes, found through process.getBuiltinModule, and nothing unsubscribed', async () => {
    const run = await runScript<ChannelsRun>(runtime, 'runtimes/scripts/channels.mjs');
    expect(run.getBuiltinModule).toBe('function');
    expect(run.quietContext).toBe('none');
    expect(run.events).toEqual(EXPECTED_EVENTS);
    // Bun's TracingChannel has no hasSubscribers of its own: the sub-channels are what count.
    if (runtime === 'bun') expect(run.tracingChannelHasSubscribers).toBe('undefined');
  });
});
