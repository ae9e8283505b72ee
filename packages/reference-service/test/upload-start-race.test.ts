// A start that arrives while an upload is being moved into the folder (after the storage checked
// the transaction was open, before it kept the file's record) must not take that file as uploaded,
// and the upload must not land in a started folder. The move is held open to order the race,
// with no sleeps.
import { createHash, randomBytes } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grant,
  login,
  presignedPost,
  startBody,
  startTestService,
  startTransaction,
  type TestService,
  type Tokens,
} from './support/service.js';

/** The next move waits until released; the test learns when it has begun. */
function heldMove() {
  let held: { begun: () => void; release: Promise<void> } | undefined;
  return {
    renameUpload: async (from: string, to: string) => {
      const hold = held;
      held = undefined;
      if (hold) {
        hold.begun();
        await hold.release;
      }
      await rename(from, to);
    },
    holdNext(): { begun: Promise<void>; release: () => void } {
      let begun!: () => void;
      let release!: () => void;
      const begunPromise = new Promise<void>((resolve) => {
        begun = resolve;
      });
      held = { begun, release: new Promise<void>((resolve) => (release = resolve)) };
      return { begun: begunPromise, release };
    },
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const move = heldMove();
let t: TestService;
let alpha: Tokens;
beforeAll(async () => {
  t = await startTestService({ renameUpload: move.renameUpload });
  alpha = await login(t.url, 'alpha');
});
afterAll(() => t.close());

describe('start racing an upload being stored', () => {
  it('refuses to start on a file whose replacement is still moving in (422 file_missing), then starts on the new file', async () => {
    const data = await grant(t.url, alpha, 'race-replace');
    expect((await presignedPost(data, 'a.wav', randomBytes(200))).status).toBe(204);
    const second = randomBytes(300);
    const hold = move.holdNext();
    const replacing = presignedPost(data, 'a.wav', second);
    await hold.begun;

    const early = await startTransaction(t.url, alpha, data.txn_id, startBody(data, ['a.wav']));
    expect(early.status).toBe(422);
    expect((await early.json()).details).toEqual([
      {
        loc: ['body', 'client_generated_files', 0],
        msg: 'a.wav is still being stored: start once its upload has been answered',
        type: 'value_error.file_missing',
      },
    ]);

    hold.release();
    expect((await replacing).status).toBe(204);
    const started = await startTransaction(t.url, alpha, data.txn_id, startBody(data, ['a.wav']));
    expect(started.status).toBe(201);
    const transaction = t.service.workflow.transactions.get(data.txn_id);
    expect(transaction?.files.get('a.wav')).toMatchObject({ size: 300, sha256: sha256(second) });
  });

  it('refuses (403) an upload that was still moving in when a start without it went through', async () => {
    const data = await grant(t.url, alpha, 'race-other');
    expect((await presignedPost(data, 'a.wav', randomBytes(200))).status).toBe(204);
    const hold = move.holdNext();
    const late = presignedPost(data, 'b.wav', randomBytes(100));
    await hold.begun;

    expect((await startTransaction(t.url, alpha, data.txn_id, startBody(data, ['a.wav']))).status).toBe(201);
    hold.release();
    const refused = await late;
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('started while the file arrived');
    const transaction = t.service.workflow.transactions.get(data.txn_id);
    expect([...(transaction?.files.keys() ?? [])]).toEqual(['a.wav']);
  });
});
