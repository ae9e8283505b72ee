import { Buffer } from 'node:buffer';
import { expect, it } from 'vitest';
import * as codec from '../../src/index.js';
import { type Activity, activity, expectNothingStarted } from '../support/threads.js';

/*
 * Large suite (`pnpm test:large`): 1 GiB streamed through encryptFileStream straight into
 * decryptFileStream, with no thread, worker or timer started before, during or after. The sink
 * only counts, so memory stays bounded; the default suite runs the same check at 64 MiB.
 */

const KEY = 'n0-thr34ds-k3y!!';
const MiB = 2 ** 20;
const SIZE = 1024 * MiB;

it('streams 1 GiB through encryption and decryption without starting any thread or timer', async () => {
  const before = activity();
  const during: Activity[] = [];
  async function* file(): AsyncGenerator<Uint8Array> {
    const block = Buffer.alloc(MiB);
    for (let i = 0; i < SIZE / MiB; i++) {
      if (i % 256 === 128) during.push(activity());
      block.writeUInt32LE(i, 0);
      yield block;
    }
  }
  let received = 0;
  const sink = new WritableStream<Uint8Array>({
    write(chunk) {
      received += chunk.length;
    },
  });
  const result = await codec.decryptFileStream(codec.encryptFileStream(file(), KEY), KEY, { to: sink });
  expect(result.bytes).toBe(SIZE);
  expect(received).toBe(SIZE);
  expect(result.spilled).toBe(false);
  expect(during).toHaveLength(4);
  for (const snapshot of during) expectNothingStarted(before, snapshot);
  expectNothingStarted(before, activity());
}, 300_000);
