// A real webhook receiver on 127.0.0.1: verifies Eka-Webhook-Signature and hands over each event.
import { jweErrorHandler, webhookReceiver } from '@jwe-transport/express-middleware';
import express from 'express';

export async function startReceiver({ signingKey, log = () => {} }) {
  const waiting = new Map();
  const arrived = new Map();
  const app = express();
  app.post(
    '/webhooks/transcription',
    webhookReceiver({
      signingKey,
      onEvent: (event, delivery) => {
        log(
          `received ${event.event} for session ${event.sessionId} (signature verified: ${delivery.verified})`,
        );
        arrived.set(event.sessionId, event);
        waiting.get(event.sessionId)?.(event);
      },
    }),
  );
  // Refused deliveries (bad signature, stale, replayed) answer JSON errors and are logged.
  app.use((error, _req, _res, next) => {
    log(`refused a delivery: ${error.type ?? error.name}`);
    next(error);
  });
  app.use(jweErrorHandler());
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const url = `http://127.0.0.1:${server.address().port}/webhooks/transcription`;
  return {
    url,
    /** The notification for `sessionId`, or a rejection after `timeoutMs` saying what to check (spec 7). */
    notification(sessionId, timeoutMs = 30_000) {
      if (arrived.has(sessionId)) return Promise.resolve(arrived.get(sessionId));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(sessionId);
          reject(
            new Error(
              `Webhook not received for session ${sessionId} within ${timeoutMs} ms: check that the endpoint ${url} is reachable from the service and correctly registered.`,
            ),
          );
        }, timeoutMs);
        waiting.set(sessionId, (event) => {
          clearTimeout(timer);
          waiting.delete(sessionId);
          resolve(event);
        });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
