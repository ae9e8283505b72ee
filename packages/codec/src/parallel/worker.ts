import type { Buffer as NodeBuffer } from 'node:buffer';
import type * as NodeCrypto from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';
import { decodeFilePart as decodeFilePartHere } from './file-part.js';
import {
  CARRY_OFFSET,
  COMMAND,
  DATA_OFFSET,
  DIGEST_OFFSET,
  type Job,
  SLOT,
  SLOTS,
  TAIL,
} from './protocol.js';

interface Constants {
  SLOT: typeof SLOT;
  COMMAND: typeof COMMAND;
  TAIL: typeof TAIL;
  SLOTS: number;
  DIGEST_OFFSET: number;
  CARRY_OFFSET: number;
  DATA_OFFSET: number;
}

/*
 * The helper worker's whole program. It runs from source text (`new Worker(code, { eval: true })`),
 * so it must not close over anything: node:crypto, Buffer and the protocol constants come in as
 * arguments. It MACs the ciphertext as the codec thread writes it, and for file payloads, only when
 * told to after the tag has verified, decrypts the second half and decodes its base64.
 */
function workerMain(
  port: MessagePort,
  crypto: typeof NodeCrypto,
  Buf: typeof NodeBuffer,
  k: Constants,
  decodeFilePart: typeof decodeFilePartHere,
  ready: Int32Array,
): void {
  const { SLOT, COMMAND, TAIL } = k;
  const WAIT_MS = 1000;
  // Give up on a job whose codec thread went away (it always sends a command within milliseconds).
  const GIVE_UP_MS = 60_000;
  const STD = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) STD[alphabet.charCodeAt(i)] = i;

  const waitFor = (ctrl: Int32Array, slot: number, done: (value: number) => boolean): number => {
    const until = Date.now() + GIVE_UP_MS;
    for (;;) {
      const value = Atomics.load(ctrl, slot);
      if (done(value) || Atomics.load(ctrl, SLOT.command) === COMMAND.stop) return value;
      if (Date.now() > until) return -1;
      Atomics.wait(ctrl, slot, value, WAIT_MS);
    }
  };

  /** Decrypts blocks [split, end), checks the padding and decodes the canonical file payload's base64. */
  const decodeTail = (job: Job, ctrl: Int32Array, bytes: NodeBuffer): void => {
    const start = k.DATA_OFFSET;
    const split = job.splitBlock * 16;
    const length = job.ciphertextLength;
    const block = (offset: number) => bytes.subarray(start + offset, start + offset + 16);
    const decrypt = (offset: number, blocks: number) =>
      crypto
        .createDecipheriv('aes-128-cbc', job.encKey, block(offset - 16))
        .setAutoPadding(false)
        .update(bytes.subarray(start + offset, start + offset + blocks * 16));
    // The last two blocks first: the padding, and the '"}' that closes the payload.
    const end = decrypt(length - 32, 2);
    const pad = end[31]!;
    let padOk = pad >= 1 && pad <= 16;
    for (let i = 32 - pad; padOk && i < 32; i++) padOk = end[i] === pad;
    if (!padOk) {
      ctrl[SLOT.tailStatus] = TAIL.badPadding;
      return;
    }
    // The base64 text starts at payload offset 9 ('{"file":"'); this half's groups start at the
    // first multiple of 4 from there, and the 0-3 characters before it go to the codec thread.
    const carry = (4 - ((split - 9) % 4)) % 4;
    const textEnd = length - pad - 2 - split;
    if (end[30 - pad] !== 0x22 || end[31 - pad] !== 0x7d || textEnd < carry) {
      ctrl[SLOT.tailStatus] = TAIL.irregular;
      return;
    }
    decrypt(split, 1).copy(bytes, k.CARRY_OFFSET, 0, carry);
    ctrl[SLOT.carryLength] = carry;
    const written = decodeFilePart({
      crypto,
      std: STD,
      encKey: job.encKey,
      iv: block(split - 16),
      ciphertext: bytes.subarray(start + split, start + length),
      skip: carry,
      textLength: textEnd - carry,
      last: true,
      out: bytes,
      // In place, over ciphertext already read: decoded bytes trail the blocks they come from.
      at: start + split + job.outputShift,
      progress: (written) => Atomics.store(ctrl, SLOT.tailProgress, written),
    });
    if (written < 0) {
      ctrl[SLOT.tailStatus] = TAIL.irregular;
      return;
    }
    ctrl[SLOT.tailBytes] = written;
    ctrl[SLOT.tailStatus] = TAIL.ok;
  };

  const run = (job: Job): void => {
    const ctrl = new Int32Array(job.buffer, 0, k.SLOTS);
    const bytes = Buf.from(job.buffer);
    const total = job.ciphertextLength;
    const mac = crypto.createHmac('sha256', job.macKey).update(job.aad).update(job.iv);
    let done = 0;
    while (done < total) {
      const available = waitFor(ctrl, SLOT.available, (value) => value > done);
      if (available <= done) return; // stopped, or abandoned
      mac.update(bytes.subarray(k.DATA_OFFSET + done, k.DATA_OFFSET + available));
      done = available;
    }
    const bits = job.aad.length * 8;
    const al = Buf.alloc(8);
    al.writeUInt32BE(Math.floor(bits / 0x100000000), 0);
    al.writeUInt32BE(bits % 0x100000000, 4);
    const digest = mac.update(al).digest();
    digest.copy(bytes, k.DIGEST_OFFSET);
    Atomics.store(ctrl, SLOT.macDone, 1);
    Atomics.notify(ctrl, SLOT.macDone);
    if (job.kind !== 'open' || job.payload !== 'file' || job.splitBlock === 0) return;
    // Verify before decrypting, here too: the codec thread checks the same tag independently
    // before it decrypts its own half, and it has told us that the text was valid base64url.
    const tag = job.tag;
    const authentic = tag.length === 16 && crypto.timingSafeEqual(digest.subarray(0, 16), tag);
    const command = waitFor(ctrl, SLOT.command, (value) => value !== COMMAND.none);
    if (!authentic || command !== COMMAND.go) return;
    ctrl[SLOT.tailStarted] = 1;
    try {
      decodeTail(job, ctrl, bytes);
    } catch {
      ctrl[SLOT.tailStatus] = TAIL.irregular;
    }
  };

  port.on('message', (job: Job) => {
    const ctrl = new Int32Array(job.buffer, 0, k.SLOTS);
    try {
      run(job);
    } finally {
      Atomics.store(ctrl, SLOT.finished, job.id);
      Atomics.notify(ctrl, SLOT.finished);
    }
  });
  // Said through shared memory, not a message: a caller that awaits large calls back to back
  // never lets its event loop take a message, and would never see the worker as ready.
  Atomics.store(ready, 0, 1);
}

/**
 * The worker's source text, for `new Worker(code, { eval: true })` (no file to locate from dist/).
 * Its `workerData` is an Int32Array on shared memory whose first slot it sets to 1 once it runs.
 */
export function workerSource(): string {
  const constants: Constants = { SLOT, COMMAND, TAIL, SLOTS, DIGEST_OFFSET, CARRY_OFFSET, DATA_OFFSET };
  // Dynamic imports, not require: eval'd worker code inherits the parent's --input-type=module.
  return `Promise.all([import('node:worker_threads'), import('node:crypto'), import('node:buffer')]).then(([threads, crypto, buffer]) => (${workerMain.toString()})(threads.parentPort, crypto, buffer.Buffer, ${JSON.stringify(constants)}, ${decodeFilePartHere.toString()}, threads.workerData));`;
}
