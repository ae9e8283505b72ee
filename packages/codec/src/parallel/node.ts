import { Buffer } from 'node:buffer';
import * as crypto from 'node:crypto';
import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { PreparedKey } from '../backend/types.js';
import { aadLengthBlock, TAG_BYTES } from '../cbc-hmac.js';
import {
  base64UrlErrors,
  isAscii,
  STD_VALUES,
  trailingBitsClear,
  URL_VALUES,
} from '../encoding/node-base64.js';
import { decryptionFailed } from '../errors.js';
import { decodeFilePart } from './file-part.js';
import {
  CARRY_OFFSET,
  COMMAND,
  DATA_OFFSET,
  DIGEST_OFFSET,
  type Job,
  outputOffset,
  SLOT,
  SLOTS,
  TAIL,
} from './protocol.js';
import type { ParallelCrypto } from './types.js';
import { workerSource } from './worker.js';

/*
 * Large one-shot envelopes on two threads. HMAC-SHA-256 and AES-128-CBC encryption are serial,
 * each near its hardware limit, so the only way to go faster is to run them beside each other:
 * the codec thread encrypts (or base64url-decodes) the ciphertext piece by piece into a
 * SharedArrayBuffer and a helper worker MACs each piece as soon as it is there. For file
 * payloads, once the tag has verified on this thread, the worker decrypts the second half and
 * decodes its base64 while this thread does the first half.
 *
 * The codec thread blocks in Atomics.wait while it needs the worker: a one-shot call is CPU-bound
 * and synchronous from start to end, so no other call can interleave with it, and one worker and
 * one buffer serve every call on this thread. Nothing backed by shared memory reaches a caller.
 * If the worker is not running yet (it starts on the first large call), has died or does not
 * answer, the caller gets `undefined` (or this thread finishes the work itself) and the one-thread
 * code runs: same results, same errors.
 */

interface NodeKey extends PreparedKey {
  readonly macKey: Buffer;
  readonly encKey: Buffer;
}

const CIPHERTEXT = 'The "ciphertext" member';
/** Below these sizes a round trip to the worker costs more than it saves (see the bench). */
const SEAL_FROM = 256 * 1024;
const OPEN_FROM = ((256 * 1024) / 3) * 4;
/**
 * The first piece is small so the worker starts early; later pieces are larger, for fewer
 * wake-ups. Plaintext bytes when sealing (multiples of 16), base64url characters when opening
 * (multiples of 4).
 */
const FIRST_PIECE = 32 * 1024;
const PIECE = 256 * 1024;
/** Keep the shared buffer between calls up to this size; larger calls get a fresh one. */
const KEEP_BUFFER = 8 * 1024 * 1024;
const MAX_STARTS = 3;
/** The share of a file payload's blocks this thread decrypts and decodes; the worker does the rest. */
const SPLIT = 0.5;

type State = 'none' | 'starting' | 'ready' | 'off';
let state: State = 'none';
let worker: Worker | undefined;
let starts = 0;
let nextId = 1;
let kept: SharedArrayBuffer | undefined;
let jobs = 0;

function startWorker(): void {
  if (starts >= MAX_STARTS) {
    state = 'off';
    return;
  }
  starts++;
  try {
    const created = new Worker(workerSource(), { eval: true, name: 'jwe-transport codec' });
    created.unref();
    worker = created;
    state = 'starting';
    created.once('message', (message) => {
      if (worker === created && message === 'ready') state = 'ready';
    });
    created.on('error', () => dropWorker(created));
    created.once('exit', () => dropWorker(created));
  } catch {
    state = 'off';
  }
}

function dropWorker(which: Worker | undefined): void {
  if (which === undefined || worker !== which) return;
  worker = undefined;
  kept = undefined; // the old worker may still hold it
  state = starts >= MAX_STARTS ? 'off' : 'none';
  void which.terminate().catch(() => {});
}

function readyWorker(): Worker | undefined {
  if (state === 'ready') return worker;
  if (state === 'none') startWorker();
  return undefined;
}

/** How long to wait for the worker before doing its work here: generous, it only guards against a hang. */
const patience = (bytes: number) => 5000 + bytes / 100_000;

class Lane {
  readonly ctrl: Int32Array;
  readonly bytes: Buffer;
  private readonly deadline: number;
  private commanded = false;

  constructor(
    private readonly worker: Worker,
    readonly id: number,
    readonly buffer: SharedArrayBuffer,
    readonly ciphertextLength: number,
  ) {
    this.ctrl = new Int32Array(buffer, 0, SLOTS);
    this.ctrl.fill(0);
    this.bytes = Buffer.from(buffer);
    this.deadline = performance.now() + patience(ciphertextLength);
  }

  publish(available: number): void {
    Atomics.store(this.ctrl, SLOT.available, available);
    Atomics.notify(this.ctrl, SLOT.available);
  }

  /** Waits until `slot` holds `value` or the worker has finished the job; false on a timeout. */
  private waitFor(slot: number, value: number): boolean {
    for (;;) {
      const seen = Atomics.load(this.ctrl, slot);
      if (seen === value) return true;
      if (Atomics.load(this.ctrl, SLOT.finished) === this.id) return slot === SLOT.finished;
      const left = this.deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.ctrl, slot, seen, Math.min(left, 1000));
    }
  }

  /** The full HMAC (a copy in ordinary memory), or undefined if the worker did not deliver it. */
  mac(): Buffer | undefined {
    if (!this.waitFor(SLOT.macDone, 1)) return undefined;
    if (Atomics.load(this.ctrl, SLOT.macDone) !== 1) return undefined;
    return Buffer.from(this.bytes.subarray(DIGEST_OFFSET, DIGEST_OFFSET + 32));
  }

  command(command: number): void {
    this.commanded = true;
    Atomics.store(this.ctrl, SLOT.command, command);
    Atomics.notify(this.ctrl, SLOT.command);
    Atomics.notify(this.ctrl, SLOT.available);
  }

  /** Waits for the worker to let go of the buffer; a worker that does not is replaced. */
  finish(): boolean {
    if (!this.commanded) this.command(COMMAND.stop);
    if (this.waitFor(SLOT.finished, this.id)) {
      if (this.buffer.byteLength <= KEEP_BUFFER && worker === this.worker) kept = this.buffer;
      return true;
    }
    dropWorker(this.worker);
    return false;
  }
}

function beginJob(
  kind: Job['kind'],
  payload: Job['payload'],
  key: NodeKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertextLength: number,
): Lane | undefined {
  const helper = readyWorker();
  if (!helper) return undefined;
  let size = outputOffset(ciphertextLength);
  if (payload === 'file') size += Math.ceil((ciphertextLength * 3) / 4) + 24;
  let buffer = kept;
  kept = undefined;
  if (buffer === undefined || buffer.byteLength < size) buffer = new SharedArrayBuffer(size);
  const id = nextId++;
  const lane = new Lane(helper, id, buffer, ciphertextLength);
  // Fresh copies: a Buffer's view may sit in a pooled ArrayBuffer that holds unrelated data.
  const job: Job = {
    id,
    kind,
    payload,
    buffer,
    macKey: new Uint8Array(key.macKey),
    encKey: new Uint8Array(key.encKey),
    aad: new Uint8Array(aad),
    iv: new Uint8Array(iv),
    ciphertextLength,
  };
  try {
    helper.postMessage(job);
    jobs++;
  } catch {
    dropWorker(helper);
    return undefined;
  }
  return lane;
}

/** This thread's HMAC, for when the worker did not deliver one. */
function macHere(key: NodeKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Buffer {
  return createHmac('sha256', key.macKey)
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(aadLengthBlock(aad.length))
    .digest();
}

function unpad(block: Buffer): Buffer {
  const pad = block[block.length - 1] ?? 0;
  if (pad < 1 || pad > 16 || pad > block.length) throw decryptionFailed();
  for (let i = block.length - pad; i < block.length; i++) if (block[i] !== pad) throw decryptionFailed();
  return block.subarray(0, block.length - pad);
}

const FILE_PREFIX = Buffer.from('{"file":"', 'latin1');
/** Decrypted-and-copied piece size for raw payloads (see file-part.ts on why pieces). */
const COPY_PIECE = 64 * 1024;

/**
 * The steps after the MAC, as methods of one object so that tests can watch their order: nothing
 * here may run before `compare` has returned true.
 */
export const parallelSteps = {
  compare(expected: Uint8Array, tag: Uint8Array): boolean {
    return expected.length === tag.length && timingSafeEqual(expected, tag);
  },
  /** The whole plaintext, decrypted and unpadded on this thread into `out` (ordinary memory). */
  decryptAll(key: NodeKey, iv: Uint8Array, ciphertext: Uint8Array, out: Buffer): Buffer {
    const decipher = createDecipheriv('aes-128-cbc', key.encKey, iv).setAutoPadding(false);
    for (let at = 0; at < ciphertext.length; at += COPY_PIECE) {
      decipher.update(ciphertext.subarray(at, at + COPY_PIECE)).copy(out, at);
    }
    return unpad(out.subarray(0, ciphertext.length));
  },
  /** Tells the worker to decrypt blocks from `split` on and decode their base64. */
  startTail(lane: Lane, split: number, outputShift: number): void {
    Atomics.store(lane.ctrl, SLOT.splitBlock, split);
    Atomics.store(lane.ctrl, SLOT.outputShift, outputShift);
    lane.command(COMMAND.decryptTail);
  },
  /** Decrypts whole blocks on this thread, `chain` being the IV or the block before them. */
  decryptBlocks(key: NodeKey, chain: Uint8Array, ciphertext: Uint8Array): Buffer {
    return createDecipheriv('aes-128-cbc', key.encKey, chain).setAutoPadding(false).update(ciphertext);
  },
  /** This thread's half of a file payload: decrypts and decodes blocks [0, split) into `out`. */
  decodeHead(key: NodeKey, iv: Uint8Array, ciphertext: Uint8Array, textLength: number, out: Buffer): number {
    return decodeFilePart({
      crypto,
      std: STD_VALUES,
      encKey: key.encKey,
      iv,
      ciphertext,
      skip: FILE_PREFIX.length,
      textLength,
      last: false,
      out,
      at: 0,
    });
  },
};

/** Memory for the result, touched once so that its page faults happen while the worker MACs. */
function prefaulted(length: number): Buffer {
  return Buffer.allocUnsafeSlow(length).fill(0);
}

function seal(
  prepared: PreparedKey,
  iv: Uint8Array,
  plaintext: Uint8Array,
  aad: Uint8Array,
): { ciphertext: string; tag: Uint8Array } | undefined {
  const key = prepared as NodeKey;
  const ciphertextLength = (Math.floor(plaintext.length / 16) + 1) * 16;
  const lane = beginJob('seal', 'raw', key, aad, iv, ciphertextLength);
  if (!lane) return undefined;
  try {
    const { bytes } = lane;
    const cipher = createCipheriv('aes-128-cbc', key.encKey, iv);
    let written = 0;
    let published = 0;
    for (let at = 0; at < plaintext.length; at += COPY_PIECE) {
      written += cipher.update(plaintext.subarray(at, at + COPY_PIECE)).copy(bytes, DATA_OFFSET + written);
      if (written - published >= PIECE || published === 0) {
        lane.publish(written);
        published = written;
      }
    }
    written += cipher.final().copy(bytes, DATA_OFFSET + written);
    lane.publish(written);
    const end = DATA_OFFSET + ciphertextLength;
    const ciphertext = bytes.toString('base64url', DATA_OFFSET, end);
    const mac = lane.mac() ?? macHere(key, aad, iv, bytes.subarray(DATA_OFFSET, end));
    return { ciphertext, tag: mac.subarray(0, TAG_BYTES) };
  } finally {
    lane.finish();
  }
}

/** Decodes `text` into the lane's buffer piece by piece, publishing each piece to the worker. */
function decodeCiphertext(lane: Lane, text: string): void {
  const { bytes } = lane;
  const length = text.length;
  let written = 0;
  for (let at = 0, piece = FIRST_PIECE; at < length; at += piece, piece = PIECE) {
    const end = Math.min(length, at + piece);
    const expected = Math.floor(((end - at) * 3) / 4);
    if (bytes.write(text.slice(at, end), DATA_OFFSET + written, expected, 'base64url') !== expected) {
      throw base64UrlErrors.alphabet(CIPHERTEXT);
    }
    written += expected;
    lane.publish(written);
  }
  // The rest of decodeBase64Url's rules, checked while the worker MACs.
  if (text.indexOf('+') !== -1 || text.indexOf('/') !== -1 || !isAscii(text)) {
    throw base64UrlErrors.alphabet(CIPHERTEXT);
  }
  if (!trailingBitsClear(text, length, URL_VALUES)) throw base64UrlErrors.trailingBits(CIPHERTEXT);
}

/**
 * The canonical file payload's bytes, decoded on both threads, or undefined for anything else
 * (the caller then decrypts on this thread and parses as on one thread).
 */
function openFile(
  lane: Lane,
  key: NodeKey,
  iv: Uint8Array,
  ciphertext: Buffer,
  out: Buffer,
): Buffer | undefined {
  const blocks = ciphertext.length / 16;
  // This thread also copies the worker's output, so it takes a little less than half.
  const split = Math.min(blocks - 3, Math.floor(blocks * SPLIT));
  if (split < 2) return undefined;
  const headText = split * 16 - FILE_PREFIX.length;
  const rest = headText % 4;
  const tailAt = ((headText - rest) / 4) * 3 + (rest > 0 ? 3 : 0);
  parallelSteps.startTail(lane, split, tailAt % 8);
  const first = parallelSteps.decryptBlocks(key, iv, ciphertext.subarray(0, 16));
  if (first.compare(FILE_PREFIX, 0, FILE_PREFIX.length, 0, FILE_PREFIX.length) !== 0) return undefined;
  const headBytes = parallelSteps.decodeHead(
    key,
    iv,
    ciphertext.subarray(0, split * 16),
    headText - rest,
    out,
  );
  if (headBytes < 0) return undefined;
  const lastHead = parallelSteps.decryptBlocks(
    key,
    ciphertext.subarray(split * 16 - 32, split * 16 - 16),
    ciphertext.subarray(split * 16 - 16, split * 16),
  );
  if (!lane.finish()) return undefined;
  const status = lane.ctrl[SLOT.tailStatus];
  if (status === TAIL.badPadding) throw decryptionFailed();
  if (status !== TAIL.ok) return undefined;
  let at = headBytes;
  const carry = lane.ctrl[SLOT.carryLength]!;
  if (rest + carry !== (rest === 0 ? 0 : 4)) return undefined;
  if (rest > 0) {
    const group =
      lastHead.toString('latin1', 16 - rest) +
      lane.bytes.toString('latin1', CARRY_OFFSET, CARRY_OFFSET + carry);
    if (/[-_]/.test(group) || out.write(group, at, 3, 'base64') !== 3) return undefined;
    at += 3;
  }
  const tailBytes = lane.ctrl[SLOT.tailBytes]!;
  if (at !== tailAt) return undefined;
  const from = outputOffset(ciphertext.length) + (at % 8);
  at += lane.bytes.copy(out, at, from, from + tailBytes);
  return out.subarray(0, at);
}

function open(
  prepared: PreparedKey,
  aad: Uint8Array,
  iv: Uint8Array,
  text: string,
  tag: Uint8Array,
  file: boolean,
): { bytes: Uint8Array; file: boolean } | undefined {
  const key = prepared as NodeKey;
  if (text.length % 4 === 1) throw base64UrlErrors.length(CIPHERTEXT, text.length);
  const ciphertextLength = Math.floor((text.length * 3) / 4);
  const lane = beginJob('open', file ? 'file' : 'raw', key, aad, iv, ciphertextLength);
  if (!lane) return undefined;
  try {
    decodeCiphertext(lane, text);
    const ciphertext = lane.bytes.subarray(DATA_OFFSET, DATA_OFFSET + ciphertextLength);
    // An upper bound for the file bytes: at least one padding byte and 11 bytes of JSON framing.
    const fileBound = Math.max(0, Math.floor((ciphertextLength - 12) / 4) * 3);
    const out = prefaulted(file ? fileBound : ciphertextLength);
    const workerMac = lane.mac();
    const mac = workerMac ?? macHere(key, aad, iv, ciphertext);
    const authentic = tag.length === TAG_BYTES && parallelSteps.compare(mac.subarray(0, TAG_BYTES), tag);
    if (!authentic || ciphertextLength === 0 || ciphertextLength % 16 !== 0) throw decryptionFailed();
    if (file && workerMac) {
      const bytes = openFile(lane, key, iv, ciphertext, out);
      if (bytes) return { bytes, file: true };
    }
    lane.finish();
    // Everything else (raw payloads, and any file payload that is not in the canonical shape,
    // which the caller parses exactly as on one thread) is decrypted here, in ordinary memory.
    const whole = file ? Buffer.allocUnsafeSlow(ciphertextLength) : out;
    return { bytes: parallelSteps.decryptAll(key, iv, ciphertext, whole), file: false };
  } finally {
    lane.finish();
  }
}

export const parallelCrypto: ParallelCrypto = {
  sealFrom: SEAL_FROM,
  openFrom: OPEN_FROM,
  seal,
  open,
};

/** For tests: whether the worker is up, how many jobs it was given, and a way to stop it. */
export const parallelWorker = {
  get ready(): boolean {
    return state === 'ready';
  },
  get jobs(): number {
    return jobs;
  },
  stop(): Promise<void> {
    const current = worker;
    dropWorker(current);
    if (state === 'off' && starts < MAX_STARTS) state = 'none';
    return current ? current.terminate().then(() => {}) : Promise.resolve();
  },
};
