#!/usr/bin/env node
// The webhook receiver as its own process: `pnpm --dir examples/workflow receiver`.
//   PORT         port on 127.0.0.1 (default 8081; 0 picks a free one)
//   SIGNING_KEY  the subscription's signing_key (required)
//   REDIS_URL    optional: replay and duplicate state in Redis, shared by every receiver on it
// Takes deliveries at POST /webhook. Prints one JSON line to stdout per event handed to onEvent,
// and nothing else to stdout (its address and errors go to stderr), so stdout can be piped on;
// `pnpm --dir examples/workflow receiver` adds no banner (reporter=silent in this folder's .npmrc).
// Refused deliveries (bad signature, stale, replayed) are answered as JSON by the receiver itself.
import { MemoryStore } from '@jwe-transport/service-client';
import { webhookReceiver } from '@jwe-transport/service-client/express';
import express from 'express';

const { PORT = '8081', SIGNING_KEY, REDIS_URL } = process.env;
if (!SIGNING_KEY) {
  console.error('Set SIGNING_KEY to the signing_key of the webhook subscription.');
  process.exit(2);
}

/**
 * Memory (one process) by default; Redis when REDIS_URL is set, loaded only then. An unreachable
 * Redis at start is one clear line on stderr and exit code 1; once running, the store reconnects
 * by itself and deliveries it cannot claim are answered 503 with Retry-After.
 */
async function openStore() {
  if (!REDIS_URL) return { store: new MemoryStore(), close: async () => {} };
  const { connectRedisStore, isStoreError } = await import('@jwe-transport/service-client/redis');
  try {
    const store = await connectRedisStore(REDIS_URL, { prefix: 'workflow-receiver:' });
    return { store, close: () => store.close() };
  } catch (error) {
    if (!isStoreError(error)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

const { store, close } = await openStore();
const app = express();
app.disable('x-powered-by');
app.post(
  '/webhook',
  webhookReceiver({
    signingKey: SIGNING_KEY,
    store,
    onEvent: (event) => {
      const line = { event: event.event, transaction_id: event.transactionId, status: event.status ?? null };
      if (event.eventId) line.event_id = event.eventId;
      process.stdout.write(`${JSON.stringify(line)}\n`);
    },
  }),
);
const server = app.listen(Number(PORT), '127.0.0.1', () => {
  console.error(
    `webhook receiver listening on http://127.0.0.1:${server.address().port}/webhook (pid ${process.pid})`,
  );
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => close().finally(() => process.exit(0)));
  });
}
