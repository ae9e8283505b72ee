import { equalBytes, ownBytes, utf8Bytes } from './bytes.js';

/** Receivers reject deliveries whose timestamp is further than this from their clock (the service's documented window). */
export const WEBHOOK_TOLERANCE_SECONDS = 180;

export interface WebhookCheck {
  /** The header parsed and some `v1` signature matches HMAC-SHA256(key, "<t>.<body>"). */
  verified: boolean;
  /** The header's `t`, in Unix seconds, when it has one. */
  timestamp: number | undefined;
  /** `now - t` in seconds (positive: the delivery is older than the clock); undefined without a `t`. */
  skewSeconds: number | undefined;
  /** Within WEBHOOK_TOLERANCE_SECONDS of `now` either way. */
  fresh: boolean;
  /** What a person should know, in order; never the key or the expected signature. */
  findings: string[];
}

export interface WebhookCheckOptions {
  /** The clock to compare `t` with, in Unix seconds; default the current time. */
  now?: number;
}

/** Splits `t=<seconds>,v1=<hex>[,v1=<hex>…]`, tolerating spaces around the pieces. */
export function parseSignatureHeader(header: string): { t: string | undefined; v1: string[] } {
  let t: string | undefined;
  const v1: string[] = [];
  for (const piece of header.split(',')) {
    const equals = piece.indexOf('=');
    if (equals <= 0) continue;
    const name = piece.slice(0, equals).trim();
    const value = piece.slice(equals + 1).trim();
    if (name === 't') t = value;
    else if (name === 'v1') v1.push(value.toLowerCase());
  }
  return { t, v1 };
}

function hexBytes(hex: string): Uint8Array | undefined {
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Checks an `Eka-Webhook-Signature` header against the raw body and the signing key:
 * `v1 = hex(HMAC-SHA256(key, "<t>.<raw body>"))`. The body must be the bytes as delivered; a body
 * re-serialized by a JSON parser no longer matches, and the findings say so.
 */
export async function checkWebhookSignature(
  rawBody: string,
  header: string,
  signingKey: string,
  { now = Math.floor(Date.now() / 1000) }: WebhookCheckOptions = {},
): Promise<WebhookCheck> {
  const findings: string[] = [];
  const value = header.replace(/^\s*eka-webhook-signature\s*:/i, '').trim();
  const { t, v1 } = parseSignatureHeader(value);
  const timestamp = t !== undefined && /^\d+$/.test(t) ? Number(t) : undefined;
  if (t === undefined) findings.push('The header has no "t=" timestamp.');
  else if (timestamp === undefined) findings.push('The header\'s "t=" is not a whole number of seconds.');
  if (v1.length === 0) findings.push('The header has no "v1=" signature.');
  if (signingKey === '') findings.push('No signing key given.');
  const skewSeconds = timestamp === undefined ? undefined : now - timestamp;
  const fresh = skewSeconds !== undefined && Math.abs(skewSeconds) <= WEBHOOK_TOLERANCE_SECONDS;
  if (skewSeconds !== undefined) {
    findings.push(
      skewSeconds >= 0
        ? `Signed ${skewSeconds} s before this check.`
        : `Signed ${-skewSeconds} s after this check: the sender's clock is ahead.`,
    );
    if (!fresh)
      findings.push(
        `Outside the ${WEBHOOK_TOLERANCE_SECONDS} s window receivers accept: a receiver rejects it as stale (or the clocks differ), whatever the signature.`,
      );
  }
  let verified = false;
  if (t !== undefined && v1.length > 0 && signingKey !== '') {
    const key = await globalThis.crypto.subtle.importKey(
      'raw',
      ownBytes(utf8Bytes(signingKey)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const expected = new Uint8Array(
      await globalThis.crypto.subtle.sign('HMAC', key, ownBytes(utf8Bytes(`${t}.${rawBody}`))),
    );
    verified = v1.some((hex) => {
      const given = hexBytes(hex);
      return given !== undefined && equalBytes(given, expected);
    });
    if (verified) findings.unshift('The signature verifies: HMAC-SHA256 of "<t>.<body>" under this key.');
    else {
      findings.unshift(
        "The signature does not verify. Either the key is not this subscription's signing key, or the body is not " +
          'byte for byte what was signed (a parser that re-serialized it, changed line endings or whitespace, or a ' +
          'trailing newline added when it was copied), or the timestamp was changed.',
      );
      if (v1.some((hex) => hexBytes(hex)?.length !== 32))
        findings.push('A "v1=" value is not 64 hex digits, the length of an HMAC-SHA256.');
      if (rawBody.endsWith('\n') || rawBody.endsWith('\r'))
        findings.push('The body ends with a line break; deliveries usually do not. Try without it.');
    }
  }
  return { verified, timestamp, skewSeconds, fresh, findings };
}
