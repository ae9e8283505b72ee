import { decrypt, encrypt, encryptJson } from '@jwe-transport/codec';
import { expect } from 'vitest';
import { type ChannelRecording, recordChannel } from './record-channel.js';

/** The keys every adapter's diagnostics test configures (kid-a and kid-b). */
export const DIAGNOSTICS_KEYS = { 'kid-a': 'abcdefghijklmnop', 'kid-b': 'Q7w!x9z#m2p$r5t&' } as const;

const SECRET = 'plaintext-marker-9d2e';

/** The server side's operations on a channel, one context each, in the order they started. */
const serverContexts = (recording: ChannelRecording) =>
  recording.contexts().filter((context) => context.side === 'server');

/** What one exchange left on `jwe-transport:open` and `jwe-transport:seal` (server side only). */
export interface ServerEvents {
  status: number;
  open: Record<string, unknown>[];
  seal: Record<string, unknown>[];
  /** The answer's body as sent (an envelope when sealed). */
  answer: string;
}

async function exchange(echoUrl: string, envelope: unknown): Promise<ServerEvents> {
  const open = recordChannel('jwe-transport:open');
  const seal = recordChannel('jwe-transport:seal');
  let status: number;
  let answer: string;
  try {
    const response = await fetch(echoUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-encryption': 'JWE' },
      body: JSON.stringify(envelope),
    });
    status = response.status;
    answer = await response.text();
  } finally {
    open.stop();
    seal.stop();
  }
  const events = { status, open: serverContexts(open), seal: serverContexts(seal), answer };
  const published = open.serialized() + seal.serialized();
  for (const secret of [...Object.values(DIAGNOSTICS_KEYS), SECRET]) expect(published).not.toContain(secret);
  return events;
}

const plaintextOf = async (envelope: string) =>
  new TextDecoder().decode(await decrypt(JSON.parse(envelope), DIAGNOSTICS_KEYS['kid-a']));

/**
 * Against `echoUrl` (a POST route that answers the request's body as JSON, on a server configured
 * with DIAGNOSTICS_KEYS), checks what the server publishes on `jwe-transport:open` and
 * `jwe-transport:seal` for: a sealed answer (one open, one seal, under kid-a, with the sizes of
 * what went over the wire), a refusal before the envelope authenticated (an open error with its
 * code and kid, no seal: the answer is plain) and a refusal after it (the 400 is sealed, so it
 * is one open and one seal). Nothing published carries a key or the plaintext. Returns the
 * sealed answer's events.
 */
export async function expectOpenAndSealTraced(echoUrl: string): Promise<ServerEvents> {
  const sent = JSON.stringify({ note: SECRET });
  const envelope = await encrypt(sent, DIAGNOSTICS_KEYS['kid-a'], { kid: 'kid-a' });
  const sealed = await exchange(echoUrl, envelope);
  expect(sealed.status).toBe(200);
  const answered = await plaintextOf(sealed.answer);
  expect(JSON.parse(answered)).toEqual({ note: SECRET });
  expect(sealed.open).toEqual([
    expect.objectContaining({
      operation: 'open',
      side: 'server',
      kid: 'kid-a',
      outcome: 'opened',
      envelopeBytes: Buffer.byteLength(JSON.stringify(envelope)),
      plaintextBytes: Buffer.byteLength(sent),
    }),
  ]);
  expect(sealed.seal).toEqual([
    expect.objectContaining({
      operation: 'seal',
      side: 'server',
      kid: 'kid-a',
      outcome: 'sealed',
      plaintextBytes: Buffer.byteLength(answered),
      envelopeBytes: Buffer.byteLength(sealed.answer),
    }),
  ]);

  // kid-a's envelope sealed with kid-b's key: refused before anything authenticated.
  const wrongKey = await exchange(
    echoUrl,
    await encryptJson({ note: SECRET }, DIAGNOSTICS_KEYS['kid-b'], { kid: 'kid-a' }),
  );
  expect(wrongKey.status).toBe(400);
  expect(wrongKey.open).toEqual([
    expect.objectContaining({
      operation: 'open',
      side: 'server',
      kid: 'kid-a',
      outcome: 'refused',
      code: 'ERR_JWE_DECRYPTION_FAILED',
      error: expect.objectContaining({ status: 400, code: 'ERR_JWE_DECRYPTION_FAILED' }),
    }),
  ]);
  expect(wrongKey.seal).toEqual([]);
  expect(JSON.parse(wrongKey.answer)).toMatchObject({ error: { code: 'ERR_JWE_DECRYPTION_FAILED' } });

  // Authenticated, then refused by the strict parser (a member twice): the 400 goes out sealed.
  const duplicate = await exchange(
    echoUrl,
    await encrypt(`{"note":"${SECRET}","note":"again"}`, DIAGNOSTICS_KEYS['kid-a'], { kid: 'kid-a' }),
  );
  expect(duplicate.status).toBe(400);
  const refusal = await plaintextOf(duplicate.answer);
  expect(JSON.parse(refusal)).toMatchObject({ error: { code: 'ERR_JWE_PLAINTEXT_INVALID' } });
  expect(duplicate.open).toEqual([expect.objectContaining({ kid: 'kid-a', outcome: 'opened' })]);
  expect(duplicate.seal).toEqual([
    expect.objectContaining({
      side: 'server',
      kid: 'kid-a',
      outcome: 'sealed',
      plaintextBytes: Buffer.byteLength(refusal),
      envelopeBytes: Buffer.byteLength(duplicate.answer),
    }),
  ]);
  return sealed;
}
