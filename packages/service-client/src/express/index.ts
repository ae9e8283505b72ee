/**
 * `@jwe-transport/service-client/express`: the webhook receiver for Express 4 and 5, a thin
 * adapter over `verifyWebhook()`.
 * @packageDocumentation
 */
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { parseLimit, tooLarge } from '../webhooks/body-limit.js';
import { isWebhookError, WebhookError } from '../webhooks/errors.js';
import {
  createWebhookProcessor,
  internalFailure,
  refusal,
  type WebhookOutcome,
  type WebhookProcessorOptions,
} from '../webhooks/processor.js';

export interface WebhookReceiverOptions extends WebhookProcessorOptions {
  /** Body size limit: bytes, or text such as `'256kb'`. Default 256 KiB. */
  limit?: number | string;
}

interface RequestWithRawBody extends IncomingMessage {
  rawBody?: unknown;
  body?: unknown;
  _body?: unknown;
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return reject(tooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      req.pause();
      reject(tooLarge(limit));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
  });
}

/** The raw bytes: read here, or kept by `express.raw()` or another parser; never re-serialized JSON. */
async function rawBodyOf(req: RequestWithRawBody, limit: number): Promise<Buffer> {
  if (Buffer.isBuffer(req.rawBody)) return req.rawBody;
  if (Buffer.isBuffer(req.body)) return req.body;
  if (req._body === true || req.readableEnded) {
    throw new WebhookError(
      'webhook.body.consumed',
      'The webhook body was already read by another parser, so its signature cannot be checked: mount webhookReceiver() before express.json(), or keep the raw bytes in req.rawBody.',
    );
  }
  return readRaw(req, limit);
}

function send(res: Response, outcome: WebhookOutcome): void {
  if (res.headersSent) return;
  res.status(outcome.status).set(outcome.headers).json(outcome.body);
}

/**
 * Express handler for webhook deliveries: reads the raw body, verifies and de-duplicates it with
 * `verifyWebhook()` and hands each new event to `onEvent` once, answering as `ack` says (default
 * `after-handler`). It answers every refusal itself, as JSON `{ error: { code, type, message } }`
 * with the error's status (never through Express's error page, which shows a stack outside
 * production); a body over `limit` answers 413 and closes the connection.
 */
export function webhookReceiver(options: WebhookReceiverOptions): RequestHandler {
  const limit = parseLimit(options.limit, 'webhookReceiver()');
  const processDelivery = createWebhookProcessor(options);
  return (req: Request, res) => {
    rawBodyOf(req as RequestWithRawBody, limit)
      .then((rawBody) => processDelivery(rawBody, req.headers))
      .then((outcome) => {
        send(res, outcome);
        const after = outcome.afterAnswer;
        if (after) res.once('finish', () => void after());
      })
      .catch((error: unknown) => {
        send(res, isWebhookError(error) ? refusal(error) : internalFailure(error, options.log));
      });
  };
}

export { isWebhookError, WebhookError } from '../webhooks/errors.js';
export type { AckMode, WebhookDelivery } from '../webhooks/processor.js';
