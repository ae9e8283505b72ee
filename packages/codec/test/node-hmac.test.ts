// The node back end computes small HMACs from their definition with crypto.hash and large ones
// with createHmac; both must equal node:crypto's own HMAC at every length, on either side of the
// switch, and the per-key buffers it reuses must not leak one message into the next MAC.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from '../src/backend/node-hmac.js';

const reference = (key: Buffer, parts: Uint8Array[]) => {
  const hmac = createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest('hex');
};

describe('node back end HMAC-SHA-256', () => {
  const lengths = [0, 1, 15, 16, 63, 64, 65, 1023, 1024, 1025, 4096, 16 * 1024 - 1, 16 * 1024, 16 * 1024 + 1];

  for (const keyLength of [16, 32, 64]) {
    it(`equals createHmac for ${keyLength}-byte keys at every length around the one-shot limit`, () => {
      const macKey = randomBytes(keyLength);
      // One state for all lengths, largest first and then back down: its buffers are reused.
      const state = { macKey };
      for (const length of [...lengths, ...[...lengths].reverse()]) {
        const message = randomBytes(length);
        const parts = [message.subarray(0, length >> 1), message.subarray(length >> 1)];
        expect(hmacSha256(state, parts).toString('hex'), `length ${length}`).toBe(reference(macKey, parts));
      }
    });
  }

  it('equals createHmac for the four parts the codec passes (AAD, IV, ciphertext, AL), 1 MiB included', () => {
    const macKey = randomBytes(16);
    const state = { macKey };
    for (const size of [32, 1040, 1024 * 1024]) {
      const parts = [randomBytes(30), randomBytes(16), randomBytes(size), Buffer.alloc(8, 1)];
      expect(hmacSha256(state, parts).toString('hex')).toBe(reference(macKey, parts));
    }
  });

  it('gives a fresh Buffer per call, not a view of state the next call overwrites', () => {
    const state = { macKey: randomBytes(16) };
    const first = hmacSha256(state, [Buffer.from('first')]);
    const copy = Buffer.from(first);
    hmacSha256(state, [Buffer.from('second message')]);
    expect(first.equals(copy)).toBe(true);
  });
});
