import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The bucket name in the storage URL and in every policy. */
export const BUCKET = 'ekascribe-audio';
export const STORAGE_PATH = `/storage/${BUCKET}`;
const ALGORITHM = 'AWS4-HMAC-SHA256';

/** The form fields of a grant (docs/wire-format.md, "Step 1"), in the order a browser form sends them. */
export type GrantFields = Record<string, string>;

export interface PolicyRules {
  expiration: number;
  keyPrefix: string;
  minBytes: number;
  maxBytes: number;
  /** Form fields that must arrive with exactly these values. */
  exact: Record<string, string>;
}

const amzDate = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * Signs an S3-style POST policy: `x-amz-signature` is the hex HMAC-SHA256 of the base64 policy
 * under the service's secret (simpler than AWS's derived key, checked the same way).
 */
export class PolicySigner {
  readonly #secret: Buffer;

  constructor(secret: string | undefined) {
    this.#secret = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  grant(options: {
    folder: string;
    txnId: string;
    now: number;
    seconds: number;
    maxBytes: number;
  }): GrantFields {
    const date = amzDate(options.now);
    const fixed: Record<string, string> = {
      'x-amz-algorithm': ALGORITHM,
      'x-amz-credential': `REFERENCE/${date.slice(0, 8)}/local/s3/aws4_request`,
      'x-amz-date': date,
      'x-amz-security-token': randomBytes(18).toString('base64url'),
      'x-amz-meta-txn-id': options.txnId,
    };
    const policy = {
      expiration: new Date(options.now + options.seconds * 1000).toISOString(),
      conditions: [
        { bucket: BUCKET },
        ['starts-with', '$key', options.folder],
        ['content-length-range', 0, options.maxBytes],
        ...Object.entries(fixed).map(([name, value]) => ({ [name]: value })),
      ],
    };
    const encoded = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64');
    return {
      key: `${options.folder}\${filename}`,
      ...fixed,
      policy: encoded,
      'x-amz-signature': this.#sign(encoded),
    };
  }

  /** The policy's rules when its signature is good; undefined for any forged, altered or unreadable policy. */
  verify(policy: string | undefined, signature: string | undefined): PolicyRules | undefined {
    if (policy === undefined || signature === undefined || !/^[0-9a-f]{64}$/.test(signature))
      return undefined;
    const expected = Buffer.from(this.#sign(policy), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return undefined;
    return readPolicy(policy);
  }

  #sign(policy: string): string {
    return createHmac('sha256', this.#secret).update(policy, 'utf8').digest('hex');
  }
}

/** Reads the conditions this service writes; a signed policy is ours, so anything else is refused. */
function readPolicy(encoded: string): PolicyRules | undefined {
  let value: { expiration?: unknown; conditions?: unknown };
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  const expiration = typeof value.expiration === 'string' ? Date.parse(value.expiration) : Number.NaN;
  if (!Number.isFinite(expiration) || !Array.isArray(value.conditions)) return undefined;
  const rules: PolicyRules = { expiration, keyPrefix: '', minBytes: 0, maxBytes: -1, exact: {} };
  for (const condition of value.conditions) {
    if (Array.isArray(condition) && condition[0] === 'starts-with' && condition[1] === '$key') {
      rules.keyPrefix = String(condition[2]);
    } else if (Array.isArray(condition) && condition[0] === 'content-length-range') {
      rules.minBytes = Number(condition[1]);
      rules.maxBytes = Number(condition[2]);
    } else if (condition !== null && typeof condition === 'object' && !Array.isArray(condition)) {
      for (const [name, expected] of Object.entries(condition)) rules.exact[name] = String(expected);
    } else {
      return undefined;
    }
  }
  return rules.keyPrefix !== '' && rules.maxBytes >= 0 ? rules : undefined;
}
