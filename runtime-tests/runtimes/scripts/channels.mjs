// Subscribes to jwe-transport:open as an application would, runs one open that succeeds and one
// that fails through the codec's traceOpen, and prints what the runtime offered and published.
import { tracingChannel } from 'node:diagnostics_channel';
import { traceOpen } from '@jwe-transport/codec/diagnostics';

let quietContext = 'not called';
traceOpen('server', '{}', (context) => {
  quietContext = context === undefined ? 'none' : 'given';
});

const events = [];
const record = (event) => (context) => events.push([event, context.outcome ?? null, context.code ?? null]);
const channel = tracingChannel('jwe-transport:open');
channel.subscribe({
  start: record('start'),
  end: record('end'),
  asyncStart: record('asyncStart'),
  asyncEnd: record('asyncEnd'),
  error: record('error'),
});

await traceOpen(
  'server',
  '{"a":1}',
  async () => 'opened',
  () => ({ plaintextBytes: 7 }),
);
await traceOpen('server', '{"a":1}', async () => {
  throw Object.assign(new Error('did not authenticate'), { code: 'ERR_JWE_DECRYPTION_FAILED' });
}).catch(() => undefined);

console.log(
  JSON.stringify({
    getBuiltinModule: typeof globalThis.process?.getBuiltinModule,
    tracingChannelHasSubscribers: channel.hasSubscribers === undefined ? 'undefined' : channel.hasSubscribers,
    quietContext,
    events,
  }),
);
