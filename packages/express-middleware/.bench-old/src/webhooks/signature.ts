import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookError } from './errors.js';

/** Field notes: the header that carries `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Eka-Webhook-Signature';

/** Field notes: receivers reject timestamps older than 180 seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 180;

type Bytes = string | Uint8Array;

function toBuffer(value: Bytes): Buffer {
  return typeof value === 'string'
    ? Buffer.from(value, 'utf8')
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** `HMAC-SHA256(signingKey, "<t>.<raw body>")`, as raw bytes. */
export function webhookDigest(rawBody: Bytes, signingKey: string, timestamp: number): Buffer {
  return createHmac('sha256', signingKey).update(`${timestamp}.`).update(toBuffer(rawBody)).digest();
}

/** The header value a sender puts on a delivery: `t=<timestamp>,v1=<hex>`. */
export function signWebhookPayload(
  rawBody: Bytes,
  signingKey: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  return `t=${timestamp},v1=${webhookDigest(rawBody, signingKey, timestamp).toString('hex')}`;
}

export interface ParsedSignature {
  timestamp: number;
  /** Every `v1` value of the header (a sender may sign with two keys while rotating). */
  signatures: string[];
}

export interface VerifiedSignature extends ParsedSignature {
  /** The `v1` value that matched the body. */
  matched: string;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

function invalid(detail: string): WebhookError {
  return new WebhookError(
    'webhook.signature.invalid',
    `The ${WEBHOOK_SIGNATURE_HEADER} header is invalid (${detail}): check that the receiver uses the signing_key of this subscription.`,
  );
}

/** Parses `t=...,v1=...`; unknown members are ignored, as for future schemes. */
export function parseSignatureHeader(value: string): ParsedSignature {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    const item = part.slice(index + 1).trim();
    if (name === 't') {
      if (!/^\d{1,12}$/.test(item) || timestamp !== undefined) throw invalid('bad t');
      timestamp = Number(item);
    } else if (name === 'v1') {
      signatures.push(item);
    }
  }
  if (timestamp === undefined) throw invalid('no t');
  if (signatures.length === 0) throw invalid('no v1');
  return { timestamp, signatures };
}

export interface VerifyOptions {
  /** The subscription's signing key, or several while rotating. */
  signingKey: string | readonly string[];
  /** Default 180. */
  toleranceSeconds?: number;
  /** Unix seconds now. Default: the system clock. */
  nowSeconds?: number;
}

/**
 * Checks a delivery's signature over its raw body with a constant-time comparison, and that its
 * timestamp is within the tolerance window (either side, for clock skew). Returns the parsed
 * header; throws a {@link WebhookError} otherwise.
 */
export function verifyWebhookSignature(
  rawBody: Bytes,
  header: string | undefined,
  options: VerifyOptions,
): VerifiedSignature {
  if (header === undefined || header.trim() === '') {
    throw new WebhookError(
      'webhook.signature.missing',
      `The delivery has no ${WEBHOOK_SIGNATURE_HEADER} header: the subscription must have a signing_key, or configure the receiver with allowUnsigned.`,
    );
  }
  const parsed = parseSignatureHeader(header);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const keys = typeof options.signingKey === 'string' ? [options.signingKey] : options.signingKey;
  // Authenticate before judging the timestamp, so that a forged header never learns about the window.
  let matched: string | undefined;
  for (const key of keys) {
    const expected = webhookDigest(rawBody, key, parsed.timestamp);
    for (const signature of parsed.signatures) {
      if (!HEX_SHA256.test(signature)) continue;
      if (timingSafeEqual(expected, Buffer.from(signature, 'hex'))) matched ??= signature.toLowerCase();
    }
  }
  if (matched === undefined) throw invalid('no v1 matches the body');
  if (Math.abs(now - parsed.timestamp) > tolerance) {
    throw new WebhookError(
      'webhook.timestamp.stale',
      `The delivery was signed ${now - parsed.timestamp} s ago, outside the ${tolerance} s window: check the clocks of sender and receiver, or whether this is a replay.`,
    );
  }
  return { ...parsed, matched };
}
