import { decryptDetailed, decryptFile, decryptJson } from '@jwe-transport/codec';
import { MemoryStore, verifyWebhook } from '@jwe-transport/service-client';
import { describe, expect, it } from 'vitest';
import { sealedEnvelope, signedDelivery } from '../src/index.js';

const KEY = 'sixteen-chars-ky';

describe('sealedEnvelope', () => {
  it('seals a JSON value that the codec opens under the same key and kid', async () => {
    const envelope = await sealedEnvelope({ aadhaar_number: '999941057058' }, { key: KEY, kid: 'kit-1' });
    expect(envelope.kid).toBe('kit-1');
    expect(JSON.stringify(envelope)).not.toContain('999941057058');
    expect(await decryptJson(envelope, KEY)).toEqual({ aadhaar_number: '999941057058' });
  });

  it('seals a string as the JSON text it is, byte for byte', async () => {
    const text = '{ "spaced" : true }';
    const { plaintext } = await decryptDetailed(await sealedEnvelope(text, { key: KEY }), KEY);
    expect(new TextDecoder().decode(plaintext)).toBe(text);
  });

  it('seals bytes, an ArrayBuffer and a Blob as the {"file"} upload payload', async () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 255]);
    for (const input of [bytes, bytes.slice().buffer, new Blob([bytes])]) {
      const envelope = await sealedEnvelope(input, { key: KEY, kid: 'kit-1' });
      expect(Buffer.from(await decryptFile(envelope, KEY)).equals(Buffer.from(bytes))).toBe(true);
      expect(await decryptJson(envelope, KEY)).toEqual({ file: Buffer.from(bytes).toString('base64') });
    }
  });

  it('draws a fresh IV every time and leaves kid out when none is given', async () => {
    const first = await sealedEnvelope({ a: 1 }, { key: KEY });
    const second = await sealedEnvelope({ a: 1 }, { key: KEY });
    expect(first.iv).not.toBe(second.iv);
    expect('kid' in first).toBe(false);
  });

  it('refuses a call without options', async () => {
    await expect(sealedEnvelope({ a: 1 }, undefined as never)).rejects.toThrow(/pass \{ key, kid\? \}/);
  });
});

describe('signedDelivery', () => {
  const event = {
    event: 'v2rx.completed',
    data: { transaction_id: 'txn-1', status: 'success', session_id: 's-1' },
    timestamp: 1_780_000_000,
  };

  it("produces a delivery that the service client's verifyWebhook accepts", async () => {
    const delivery = await signedDelivery(event, { secret: 'whsec-test-123', timestamp: 1_780_000_000 });
    expect(delivery.headers['Eka-Webhook-Signature']).toMatch(/^t=1780000000,v1=[0-9a-f]{64}$/);
    expect(delivery.body).toBe(JSON.stringify(event));
    const verified = await verifyWebhook(delivery.body, delivery.headers, {
      signingKey: 'whsec-test-123',
      nowSeconds: () => 1_780_000_010,
      store: new MemoryStore(),
    });
    expect(verified).toMatchObject({ verified: true, signedAt: 1_780_000_000, disposition: 'new' });
    expect(verified.event.transactionId).toBe('txn-1');
  });

  it('is refused by verifyWebhook under another secret, for an altered body, and when stale', async () => {
    const delivery = await signedDelivery(event, { secret: 'whsec-test-123', timestamp: 1_780_000_000 });
    const options = { nowSeconds: () => 1_780_000_010, store: new MemoryStore() };
    await expect(
      verifyWebhook(delivery.body, delivery.headers, { ...options, signingKey: 'whsec-other-456' }),
    ).rejects.toMatchObject({ code: 'ERR_WEBHOOK_SIGNATURE_INVALID' });
    await expect(
      verifyWebhook(delivery.body.replace('txn-1', 'txn-2'), delivery.headers, {
        ...options,
        signingKey: 'whsec-test-123',
      }),
    ).rejects.toMatchObject({ code: 'ERR_WEBHOOK_SIGNATURE_INVALID' });
    await expect(
      verifyWebhook(delivery.body, delivery.headers, {
        signingKey: 'whsec-test-123',
        store: new MemoryStore(),
        nowSeconds: () => 1_780_000_000 + 181,
      }),
    ).rejects.toMatchObject({ code: 'ERR_WEBHOOK_TIMESTAMP_STALE' });
  });

  it('signs a string body as it is and takes a Date as the timestamp', async () => {
    const text = '{"event":"v2rx.completed","data":{"transaction_id":"txn-9","status":"success"}}';
    const delivery = await signedDelivery(text, {
      secret: 's3cret-key',
      timestamp: new Date(1_780_000_000_500),
    });
    expect(delivery.body).toBe(text);
    expect(delivery.headers['Eka-Webhook-Signature']).toMatch(/^t=1780000000,/);
  });

  it('refuses a missing secret and a timestamp that is not whole seconds', async () => {
    await expect(signedDelivery(event, { secret: '' })).rejects.toThrow(/signing key/);
    await expect(signedDelivery(event, { secret: 'x', timestamp: 1.5 })).rejects.toThrow(
      /whole Unix seconds/,
    );
  });
});
