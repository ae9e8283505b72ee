import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import * as codec from '../src/index.js';
import { collect, memorySink } from './support/streams.js';
import { type Activity, activity, expectNothingStarted } from './support/threads.js';

/*
 * A library starts no thread, worker or timer its caller did not ask for. These run the sizes at
 * which the codec once moved work to a second thread; the 1 GiB streaming variant is in the large
 * suite (test/large/no-threads.large.test.ts).
 */

const KEY = 'n0-thr34ds-k3y!!';
const MiB = 2 ** 20;

/** `total` bytes in 1 MiB chunks, calling `midway` once half of them have been handed out. */
async function* chunks(total: number, midway: () => void): AsyncGenerator<Uint8Array> {
  const block = Buffer.alloc(MiB, 7);
  for (let sent = 0; sent < total; sent += MiB) {
    if (sent === total / 2) midway();
    yield block;
  }
}

describe('no thread, worker or timer is started', () => {
  it('around 16 MiB one-shot calls, every function', async () => {
    const file = Buffer.alloc(16 * MiB, 1);
    const before = activity();
    const fileEnvelope = await codec.encryptFile(file, KEY);
    const rawEnvelope = await codec.encrypt(file, KEY);
    const syncEnvelope = codec.encryptSync(file, KEY);
    expect(Buffer.from(await codec.decryptFile(fileEnvelope, KEY)).equals(file)).toBe(true);
    expect(Buffer.from(await codec.decrypt(rawEnvelope, KEY)).equals(file)).toBe(true);
    expect((await codec.decryptDetailed(syncEnvelope, KEY)).plaintext.length).toBe(file.length);
    expectNothingStarted(before, activity());
  });

  it('during and after a 64 MiB streaming encryption and decryption', async () => {
    const size = 64 * MiB;
    const before = activity();
    let midEncrypt: Activity | undefined;
    const envelope = await collect(
      codec.encryptFileStream(
        chunks(size, () => {
          midEncrypt = activity();
        }),
        KEY,
      ),
    );
    let midDecrypt: Activity | undefined;
    const sink = memorySink();
    let handed = 0;
    async function* envelopeChunks() {
      for (let at = 0; at < envelope.length; at += MiB) {
        if (midDecrypt === undefined && at >= envelope.length / 2) midDecrypt = activity();
        handed += Math.min(MiB, envelope.length - at);
        yield envelope.subarray(at, at + MiB);
      }
    }
    const result = await codec.decryptFileStream(envelopeChunks(), KEY, { to: sink.stream });
    expect(handed).toBe(envelope.length);
    expect(result.bytes).toBe(size);
    expect(sink.state.closed).toBe(true);
    expectNothingStarted(before, midEncrypt!);
    expectNothingStarted(before, midDecrypt!);
    expectNothingStarted(before, activity());
  });
});
