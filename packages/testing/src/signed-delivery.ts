/** The header of a signed webhook delivery (field notes, "Webhooks"). */
export const WEBHOOK_SIGNATURE_HEADER = 'Eka-Webhook-Signature';

export interface SignedDeliveryOptions {
  /** The subscription's `signing_key`. */
  secret: string;
  /** When it was signed: Unix seconds or a `Date`. Default: now (receivers refuse stale ones). */
  timestamp?: number | Date;
}

/** A webhook delivery as the service sends it: the exact body that was signed and its headers. */
export interface SignedDelivery {
  /** The raw body: send these bytes unchanged, or the signature no longer matches. */
  body: string;
  headers: { 'Eka-Webhook-Signature': string; 'Content-Type': 'application/json' };
}

const utf8 = new TextEncoder();

function unixSeconds(timestamp: number | Date | undefined): number {
  if (timestamp === undefined) return Math.floor(Date.now() / 1000);
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new TypeError('signedDelivery: "timestamp" must be whole Unix seconds or a valid Date.');
  }
  return seconds;
}

/**
 * A signed webhook delivery for a body (an object is sent as its JSON text, a string as it is):
 * `Eka-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. Post it
 * to your receiver to test it. Uses WebCrypto, so it runs in Node, browsers and workers alike.
 */
export async function signedDelivery(body: unknown, options: SignedDeliveryOptions): Promise<SignedDelivery> {
  if (
    options === null ||
    typeof options !== 'object' ||
    typeof options.secret !== 'string' ||
    options.secret === ''
  ) {
    throw new TypeError("signedDelivery: pass { secret, timestamp? } with the subscription's signing key.");
  }
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  if (text === undefined) throw new TypeError('signedDelivery: the body has no JSON representation.');
  const t = unixSeconds(options.timestamp);
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    utf8.encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, utf8.encode(`${t}.${text}`)));
  const hex = Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return {
    body: text,
    headers: {
      [WEBHOOK_SIGNATURE_HEADER]: `t=${t},v1=${hex}`,
      'Content-Type': 'application/json',
    } as SignedDelivery['headers'],
  };
}
