import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkWebhookSignature, maskIdentifiers, maskValue } from '../src/index.js';

const KEY = 'whsec_test_signing_key';
const BODY = '{"event":"v2rx.completed","data":{"transaction_id":"txn-1"}}';
const sign = (t: number, body: string, key = KEY) =>
  `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;

describe('checkWebhookSignature', () => {
  it('verifies a signature made with node:crypto and reports the skew', async () => {
    const result = await checkWebhookSignature(BODY, sign(1_000, BODY), KEY, { now: 1_030 });
    expect(result).toMatchObject({ verified: true, timestamp: 1_000, skewSeconds: 30, fresh: true });
  });

  it('accepts the header pasted with its name', async () => {
    const result = await checkWebhookSignature(BODY, `Eka-Webhook-Signature: ${sign(5, BODY)}`, KEY, {
      now: 5,
    });
    expect(result.verified).toBe(true);
  });

  it('rejects another key, a changed body and a re-serialized body; flags staleness and a trailing newline', async () => {
    expect((await checkWebhookSignature(BODY, sign(1, BODY, 'other'), KEY, { now: 1 })).verified).toBe(false);
    const reserialized = JSON.stringify(JSON.parse(BODY), null, 2);
    expect((await checkWebhookSignature(reserialized, sign(1, BODY), KEY, { now: 1 })).verified).toBe(false);
    const stale = await checkWebhookSignature(`${BODY}\n`, sign(1, BODY), KEY, { now: 1_000 });
    expect(stale).toMatchObject({ verified: false, fresh: false, skewSeconds: 999 });
    expect(stale.findings.join(' ')).toMatch(/line break/);
    expect(stale.findings.join(' ')).not.toContain(KEY);
  });

  it('says what is missing from a malformed header', async () => {
    const result = await checkWebhookSignature(BODY, 'v1=abcd', KEY);
    expect(result.verified).toBe(false);
    expect(result.findings.join(' ')).toMatch(/no "t=" timestamp/);
  });
});

describe('maskIdentifiers', () => {
  it('hides Aadhaar-like numbers (keeping the last 4), phone numbers and e-mail addresses', () => {
    expect(maskIdentifiers('aadhaar 1234 5678 9012 and 123456789012')).toBe(
      'aadhaar •••• •••• 9012 and ••••••••9012',
    );
    expect(maskIdentifiers('call +91 98765 43210 or 9876543210')).toBe('call +•• ••••• ••••• or ••••••••••');
    expect(maskIdentifiers('mail a.b+c@example.co.in')).toBe('mail •••@example.co.in');
    expect(maskIdentifiers('txn-42 on 2026-11-26, 3 items')).toBe('txn-42 on 2026-11-26, 3 items');
  });

  it('masks inside JSON values, numbers with identifier length included', () => {
    expect(maskValue({ a: ['x@y.io'], n: 123456789012, small: 42 })).toEqual({
      a: ['•••@y.io'],
      n: '••••••••9012',
      small: 42,
    });
  });
});
