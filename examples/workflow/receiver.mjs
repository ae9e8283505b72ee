#!/usr/bin/env node
// The webhook receiver as its own process: `pnpm --dir examples/workflow receiver`.
//   PORT         port on 127.0.0.1 (default 8081; 0 picks a free one)
//   SIGNING_KEY  the subscription's signing_key (required)
//   REDIS_URL    optional: replay and duplicate state in Redis, shared by every receiver on it
// Takes deliveries at POST /webhook. Prints one JSON line to stdout per event handed to onEvent,
// and nothing else to stdout (its address and errors go to stderr), so stdout can be piped on.
import { MemoryStore } from '@jwe-transport/service-client';
import { webhookReceiver } from '@jwe-transport/service-client/express';
import express from 'express';

const { PORT = '8081', SIGNING_KEY, REDIS_URL } = process.env;
if (!SIGNING_KEY) {
  console.error('Set SIGNING_KEY to the signing_key of the webhook subscription.');
  process.exit(2);
}

/** Memory (one process) by default; Redis when REDIS_URL is set, loaded only then. */
async function openStore() {
  if (!REDIS_URL) return { store: new MemoryStore(), close: async () => {} };
  const [{ default: Redis }, { redisStore }] = await Promise.all([
    import('ioredis'),
    import('@jwe-transport/service-client/redis'),
  ]);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  return { store: redisStore(redis, { prefix: 'workflow-receiver:' }), close: () => redis.quit() };
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
// Refused deliveries (bad signature, stale, replayed, duplicate) answer JSON and are noted on stderr.
app.use((error, _req, res, _next) => {
  console.error(`refused a delivery: ${error.code ?? error.name}`);
  res.status(error.status ?? 500).json({ error: { code: error.code, type: error.type } });
});
const server = app.listen(Number(PORT), '127.0.0.1', () => {
  console.error(`webhook receiver listening on http://127.0.0.1:${server.address().port}/webhook`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    server.closeAllConnections();
    server.close(() => close().finally(() => process.exit(0)));
  });
}
