import { encryptJson } from '@jwe-transport/codec';
import { expect } from 'vitest';
import { recordChannel } from './record-channel.js';

/** The keys every adapter's diagnostics test configures; the request is kid-a's envelope sealed with kid-b's key. */
export const DIAGNOSTICS_KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' } as const;

/**
 * Sends a wrong-key request to `echoUrl` (a server configured with DIAGNOSTICS_KEYS) while
 * recording `jwe-transport:open`, and asserts the server answered 400 and published exactly one
 * error event with its code and kid, and that nothing published carries a key or the plaintext.
 */
export async function expectWrongKeyOpenTraced(echoUrl: string): Promise<void> {
  const body = JSON.stringify(
    await encryptJson({ hello: 'world' }, DIAGNOSTICS_KEYS['kid-b'], { kid: 'kid-a' }),
  );
  const recording = recordChannel('jwe-transport:open');
  try {
    const response = await fetch(echoUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body,
    });
    expect(response.status).toBe(400);
  } finally {
    recording.stop();
  }
  const errors = recording.events.filter((e) => e.event === 'error');
  expect(errors).toHaveLength(1);
  expect(errors[0]?.context).toMatchObject({
    operation: 'open',
    side: 'server',
    kid: 'kid-a',
    outcome: 'refused',
    code: 'ERR_JWE_DECRYPTION_FAILED',
    error: { status: 400, code: 'ERR_JWE_DECRYPTION_FAILED' },
  });
  for (const secret of [...Object.values(DIAGNOSTICS_KEYS), 'world'])
    expect(recording.serialized()).not.toContain(secret);
}
