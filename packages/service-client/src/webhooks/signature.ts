import { WebhookError } from './errors.js';

/** Field notes: the header that carries `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Eka-Webhook-Signature';

/** Field notes: receivers reject timestamps older than 180 seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 180;

/** A raw body as received: bytes, or a string taken as its UTF-8 bytes. */
export type RawBody = string | Uint8Array;

const utf8 = new TextEncoder();

function signedBytes(rawBody: RawBody, timestamp: number): Uint8Array<ArrayBuffer> {
  const prefix = utf8.encode(`${timestamp}.`);
  const body = typeof rawBody === 'string' ? utf8.encode(rawBody) : rawBody;
  const bytes = new Uint8Array(prefix.length + body.length);
  bytes.set(prefix, 0);
  bytes.set(body, prefix.length);
  return bytes;
}

function hmacKey(signingKey: string, usage: 'sign' | 'verify'): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey(
    'raw',
    utf8.encode(signingKey),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    [usage],
  );
}

function toHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++)
    bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

/** The header value a sender puts on a delivery: `t=<timestamp>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export async function signWebhookPayload(
  rawBody: RawBody,
  signingKey: string,
  timestamp: number = Math.floor(Date.now() / 1000),
): Promise<string> {
  const key = await hmacKey(signingKey, 'sign');
  const digest = await globalThis.crypto.subtle.sign('HMAC', key, signedBytes(rawBody, timestamp));
  return `t=${timestamp},v1=${toHex(digest)}`;
}

/**
 * Most `v1` entries a header may carry. A sender rotating keys sends two; each entry costs an HMAC
 * per signing key, so a forged header with hundreds of them would cost hundreds of HMACs. More
 * than this is refused as malformed before any is computed, so a request's cost stays bounded.
 */
export const MAX_SIGNATURE_ENTRIES = 8;

export interface ParsedSignature {
  timestamp: number;
  /** Every `v1` value of the header (a sender may sign with two keys while rotating). */
  signatures: string[];
}

export interface VerifiedSignature extends ParsedSignature {
  /** The `v1` value that matched the body, lower case. */
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
      if (signatures.length === MAX_SIGNATURE_ENTRIES)
        throw invalid(`more than ${MAX_SIGNATURE_ENTRIES} v1 entries`);
      signatures.push(item);
    }
  }
  if (timestamp === undefined) throw invalid('no t');
  if (signatures.length === 0) throw invalid('no v1');
  return { timestamp, signatures };
}

export interface SignatureOptions {
  /** The subscription's signing key, or several while rotating. */
  signingKey: string | readonly string[];
  /** Default 180. */
  toleranceSeconds?: number;
  /** Unix seconds now. Default: the system clock. */
  nowSeconds?: number;
}

/**
 * Checks a delivery's signature over its raw body (WebCrypto's HMAC verify, which compares in
 * constant time), then that its timestamp is within the tolerance window (either side, for clock
 * skew). Throws a {@link WebhookError} otherwise.
 */
export async function verifyWebhookSignature(
  rawBody: RawBody,
  header: string | undefined,
  options: SignatureOptions,
): Promise<VerifiedSignature> {
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
  const data = signedBytes(rawBody, parsed.timestamp);
  // Authenticate before judging the timestamp, so that a forged header never learns about the window.
  let matched: string | undefined;
  for (const signingKey of keys) {
    const key = await hmacKey(signingKey, 'verify');
    for (const signature of parsed.signatures) {
      if (!HEX_SHA256.test(signature)) continue;
      if (await globalThis.crypto.subtle.verify('HMAC', key, fromHex(signature), data)) {
        matched ??= signature.toLowerCase();
      }
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
