import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
// The published Deno build (pnpm build first), loaded here by path; runtime-tests/ run it in Deno.
import * as denoCodec from '../dist/index.deno.js';
import * as nodeCodec from '../dist/index.node.js';
import { expectJweError } from './support/errors.js';
import { collect, memorySink } from './support/streams.js';

const KEY = 'deno-build-k16!!';

describe('the Deno build', () => {
  it('seals one-shot on WebCrypto, so encryptSync is refused as in browsers', async () => {
    expect(denoCodec.backendName).toBe('webcrypto');
    await expectJweError(() => denoCodec.encryptSync('x', KEY), 'ERR_JWE_UNSUPPORTED');
    const iv = new Uint8Array(16).fill(7);
    const bytes = randomBytes(70_001);
    // Same IV, same envelope as the Node build: only the back end differs.
    expect(await denoCodec.encryptFile(bytes, KEY, { unsafeFixedIv: iv })).toEqual(
      await nodeCodec.encryptFile(bytes, KEY, { unsafeFixedIv: iv }),
    );
  });

  it('streams on node:crypto, and what it streams the one-shot functions read, and back', async () => {
    expect(denoCodec.streamingAvailable).toBe(true);
    const file = randomBytes(3 * 2 ** 20 + 5);
    const envelope = await collect(
      denoCodec.encryptFileStream([file.subarray(0, 1000), file.subarray(1000)], KEY),
    );
    expect(Buffer.from(await denoCodec.decryptFile(envelope, KEY)).equals(file)).toBe(true);

    const sink = memorySink();
    const sealed = await denoCodec.encryptFileToString(file, KEY);
    const result = await denoCodec.decryptFileStream([new TextEncoder().encode(sealed)], KEY, {
      to: sink.stream,
    });
    expect(result.bytes).toBe(file.length);
    expect(sink.bytes().equals(file)).toBe(true);
  });
});
