import { constants } from 'node:buffer';
import { encryptSync } from '@jwe-transport/codec';
import {
  captureLogger,
  expectUnsealedAnswer,
  LOGGING_KEY as KEY,
} from '@jwe-transport/test-support/server-conformance/logger';
import { serveFetch } from '@jwe-transport/test-support/server-conformance/serve-fetch';
import { describe, expect, it } from 'vitest';
import { envelopeJson } from '../../src/envelope-json.js';
import { JweServer, type Refusal, withJwe } from '../../src/index.js';

const MAX = constants.MAX_STRING_LENGTH;
/** Characters of base64url for a plaintext of `size` bytes: PKCS#7 always adds 1 to 16 bytes. */
const ciphertextChars = (size: number) => Math.ceil(((Math.floor(size / 16) + 1) * 16 * 4) / 3);
/** Characters of an answer's envelope text besides its ciphertext (kid "k"). */
const framing = (() => {
  const envelope = encryptSync('{}', KEY, { kid: 'k' });
  return envelopeJson(envelope).length - envelope.ciphertext.length;
})();
/** The largest answer whose envelope is one string: the server's limit for sealed answers. */
const largest = (() => {
  let size = Math.floor((MAX * 3) / 4);
  while (ciphertextChars(size) + framing > MAX) size--;
  return size;
})();

/** A JSON string answer of exactly `size` bytes. */
const answerOf = (size: number) => `"${'a'.repeat(size - 2)}"`;

describe('answers at the longest string this runtime holds', () => {
  it('seals the largest answer whose envelope is one string', async () => {
    const server = new JweServer({ keys: { k: KEY }, responses: 'always' });
    const opened = await server.openPlain(false);
    const answer = await server.answer(opened, 200, 'application/json', answerOf(largest));
    expect(answer.sealed).toBe(true);
    expect(answer.failure).toBeUndefined();
    expect(answer.body!.length).toBe(ciphertextChars(largest) + framing);
    expect(answer.body!.length).toBeLessThanOrEqual(MAX);
    expect(ciphertextChars(largest + 1) + framing).toBeGreaterThan(MAX);
  });

  it('answers one byte more, and far more, with the plain 500 and reports why', async () => {
    const { lines, logger } = captureLogger();
    const rejected: Refusal[] = [];
    const handler = withJwe(
      (request) => {
        const size = Number(new URL(request.url).searchParams.get('size'));
        return new Response(answerOf(size), { headers: { 'content-type': 'application/json' } });
      },
      {
        keys: { k: KEY },
        responses: 'always',
        logger,
        onReject: (_error, refusal) => rejected.push(refusal),
      },
    );
    const running = await serveFetch(handler);
    try {
      // One byte more makes the envelope one block longer than a string can be.
      await expectUnsealedAnswer(await fetch(`${running.url}/answer?size=${largest + 1}`));
      // Far enough over that the codec refuses before any work, and says what to use instead.
      const over = Math.floor((MAX * 3) / 4);
      await expectUnsealedAnswer(await fetch(`${running.url}/answer?size=${over}`));

      expect(rejected.map((refusal) => [refusal.status, refusal.code, refusal.kid])).toEqual([
        [500, 'ERR_JWE_ENCRYPT_FAILED', 'k'],
        [500, 'ERR_JWE_ENCRYPT_FAILED', 'k'],
      ]);
      const [atLimit, farOver] = lines.map((line) => line.details.err as Error & { cause: unknown });
      expect(atLimit!.message).toContain(`200 answer (${largest + 1} bytes of JSON) could not be encrypted`);
      expect(atLimit!.cause).toBeInstanceOf(RangeError);
      expect(farOver!.message).toContain(`a plaintext of ${over} bytes makes an envelope longer than`);
      expect(farOver!.message).toContain('encryptStream()');
    } finally {
      await running.close();
    }
  });
});
