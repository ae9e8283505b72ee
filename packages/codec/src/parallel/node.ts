import { Buffer } from 'node:buffer';
import * as crypto from 'node:crypto';
import { createCipheriv, createDecipheriv, timingSafeEqual } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { nodeBackend } from '../backend/node.js';
import type { PreparedKey } from '../backend/types.js';
import { computeTagSync, TAG_BYTES } from '../cbc-hmac.js';
import { base64UrlErrors, STD_VALUES, trailingBitsClear, URL_VALUES } from '../encoding/node-base64.js';
import { decryptionFailed } from '../errors.js';
import { FILE_PREFIX_TEXT, FILE_SUFFIX_TEXT, filePayloadLength } from '../file-payload.js';
import { paddedLength, unpad } from '../pkcs7.js';
import { decodeFilePart } from './file-part.js';
import {
  CARRY_OFFSET,
  COMMAND,
  DATA_OFFSET,
  DIGEST_OFFSET,
  type Job,
  SLOT,
  SLOTS,
  TAIL,
  tailOffset,
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
const KEEP_BUFFER = 64 * 1024 * 1024;
/**
 * ...for this long after the last large call. A fresh SharedArrayBuffer per call costs more than
 * the work at 16 MiB (zeroed pages, and external-memory GCs): measured 12.6 against 32.7 calls/s.
 */
const KEEP_MS = 2000;
const MAX_STARTS = 3;
/** The share of a file payload's blocks this thread decrypts and decodes; the worker does the rest. */
export const SPLIT = 0.4;
/** How long the codec thread polls for the worker's half before it sleeps. */
const SPIN_MS = 2;

type State = 'none' | 'starting' | 'ready' | 'off';
let state: State = 'none';
let worker: Worker | undefined;
/** Set to 1 by the worker once it can take jobs (see worker.ts). */
let workerUp: Int32Array | undefined;
let starts = 0;
let nextId = 1;
let kept: SharedArrayBuffer | undefined;
let lastJob = 0;
let keptTimer: ReturnType<typeof setTimeout> | undefined;

/** Drops the kept buffer once no large call has come for KEEP_MS (the timer never holds a process). */
function forgetKeptLater(): void {
  lastJob = performance.now();
  if (keptTimer) return;
  const check = () => {
    const idle = performance.now() - lastJob;
    if (idle >= KEEP_MS) {
      kept = undefined;
      keptTimer = undefined;
    } else {
      keptTimer = setTimeout(check, KEEP_MS - idle + 1);
      keptTimer.unref?.();
    }
  };
  keptTimer = setTimeout(check, KEEP_MS);
  keptTimer.unref?.();
}
let jobs = 0;
let lastTailStarted = false;

function startWorker(): void {
  if (starts >= MAX_STARTS) {
    state = 'off';
    return;
  }
  starts++;
  try {
    const up = new Int32Array(new SharedArrayBuffer(4));
    const created = new Worker(workerSource(), { eval: true, name: 'jwe-transport codec', workerData: up });
    worker = created;
    workerUp = up;
    state = 'starting';
    created.on('error', () => dropWorker(created));
    created.once('exit', () => dropWorker(created));
    // It must never keep a process alive.
    created.unref();
  } catch {
    state = 'off';
  }
}

function dropWorker(which: Worker | undefined): void {
  if (which === undefined || worker !== which) return;
  worker = undefined;
  workerUp = undefined;
  kept = undefined; // the old worker may still hold it
  state = starts >= MAX_STARTS ? 'off' : 'none';
  void which.terminate().catch(() => {});
}

/** Notices a worker that has come up since the last look. */
function checkStarted(): void {
  if (state === 'starting' && workerUp !== undefined && Atomics.load(workerUp, 0) === 1) state = 'ready';
}

function readyWorker(): Worker | undefined {
  checkStarted();
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

  /**
   * Waits until `slot` holds `value` or the worker has finished the job; false on a timeout.
   * `spin`: poll first for up to that many milliseconds, for waits that should end at once
   * (waking a sleeping thread costs tens of microseconds on these virtual machines).
   */
  private waitFor(slot: number, value: number, spin = 0): boolean {
    if (spin > 0) {
      const until = performance.now() + spin;
      do {
        for (let i = 0; i < 64; i++) {
          if (Atomics.load(this.ctrl, slot) === value) return true;
        }
      } while (performance.now() < until);
    }
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

  /** Whether the worker is done with this job (it touches the buffer no more). */
  isFinished(): boolean {
    return Atomics.load(this.ctrl, SLOT.finished) === this.id;
  }

  /** Waits for the worker to let go of the buffer; a worker that does not is replaced. */
  finish(spin = 0): boolean {
    if (!this.commanded) this.command(COMMAND.stop);
    if (this.waitFor(SLOT.finished, this.id, spin)) {
      lastTailStarted = this.ctrl[SLOT.tailStarted] === 1;
      if (this.buffer.byteLength <= KEEP_BUFFER && worker === this.worker) kept = this.buffer;
      return true;
    }
    dropWorker(this.worker);
    return false;
  }
}

const NO_TAIL = { tag: new Uint8Array(0), splitBlock: 0, outputShift: 0 };

function beginJob(
  kind: Job['kind'],
  payload: Job['payload'],
  key: NodeKey,
  aad: Uint8Array,
  iv: Uint8Array,
  ciphertextLength: number,
  tail: Pick<Job, 'tag' | 'splitBlock' | 'outputShift'> = NO_TAIL,
): Lane | undefined {
  const helper = readyWorker();
  if (!helper) return undefined;
  const size = DATA_OFFSET + ciphertextLength;
  let buffer = kept;
  kept = undefined;
  if (buffer === undefined || buffer.byteLength < size) buffer = new SharedArrayBuffer(size);
  forgetKeptLater();
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
    tag: new Uint8Array(tail.tag),
    splitBlock: tail.splitBlock,
    outputShift: tail.outputShift,
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

/** This thread's tag, for when the worker did not deliver its MAC. */
function tagHere(key: NodeKey, aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array {
  return computeTagSync(nodeBackend.sync!, key, aad, iv, ciphertext);
}

const FILE_PREFIX = Buffer.from(FILE_PREFIX_TEXT, 'latin1');
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
  /** Decrypts whole blocks on this thread, `chain` being the IV or the block before them. */
  decryptBlocks(key: NodeKey, chain: Uint8Array, ciphertext: Uint8Array): Buffer {
    return createDecipheriv('aes-128-cbc', key.encKey, chain).setAutoPadding(false).update(ciphertext);
  },
  /** This thread's share of a file payload: decrypts and decodes blocks [0, split) into `out`. */
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

/** Plaintext for `seal`: bytes as they are, or a file whose payload `{"file":"<base64>"}` is built piece by piece. */
type SealInput = { bytes: Uint8Array } | { file: Uint8Array };

/** Base64 text of this many file bytes (a multiple of 3) fills one COPY_PIECE. */
const FILE_SLICE = (COPY_PIECE / 4) * 3;
const FILE_SUFFIX = Buffer.from(FILE_SUFFIX_TEXT, 'latin1');
let fileScratch: Buffer | undefined;

/**
 * Feeds the plaintext to `update` in pieces of at most COPY_PIECE bytes. A file payload is never
 * built whole: each 48 KiB slice of the file is base64-encoded into a reused buffer just before
 * AES reads it, which spares a fresh 1.4 MB buffer (and its page faults) per megabyte of file.
 */
function eachPiece(input: SealInput, update: (piece: Uint8Array) => void): void {
  if ('bytes' in input) {
    for (let at = 0; at < input.bytes.length; at += COPY_PIECE)
      update(input.bytes.subarray(at, at + COPY_PIECE));
    return;
  }
  const { file } = input;
  fileScratch ??= Buffer.allocUnsafeSlow(COPY_PIECE);
  const scratch = fileScratch;
  update(FILE_PREFIX);
  const source = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  for (let at = 0; at < file.length; at += FILE_SLICE) {
    const text = source.toString('base64', at, Math.min(at + FILE_SLICE, file.length));
    update(scratch.subarray(0, scratch.write(text, 0, 'latin1')));
  }
  update(FILE_SUFFIX);
}

function seal(
  prepared: PreparedKey,
  iv: Uint8Array,
  input: SealInput,
  aad: Uint8Array,
): { ciphertext: string; tag: Uint8Array } | undefined {
  const key = prepared as NodeKey;
  const plaintextLength = 'bytes' in input ? input.bytes.length : filePayloadLength(input.file.length);
  const ciphertextLength = paddedLength(plaintextLength);
  const lane = beginJob('seal', 'raw', key, aad, iv, ciphertextLength);
  if (!lane) return undefined;
  try {
    const { bytes } = lane;
    const cipher = createCipheriv('aes-128-cbc', key.encKey, iv);
    let written = 0;
    let published = 0;
    eachPiece(input, (piece) => {
      written += cipher.update(piece).copy(bytes, DATA_OFFSET + written);
      if (written - published >= PIECE || (published === 0 && written > 0)) {
        lane.publish(written);
        published = written;
      }
    });
    written += cipher.final().copy(bytes, DATA_OFFSET + written);
    lane.publish(written);
    const end = DATA_OFFSET + ciphertextLength;
    const ciphertext = bytes.toString('base64url', DATA_OFFSET, end);
    const tag = lane.mac()?.subarray(0, TAG_BYTES) ?? tagHere(key, aad, iv, bytes.subarray(DATA_OFFSET, end));
    return { ciphertext, tag };
  } finally {
    lane.finish();
  }
}

const utf8 = new TextEncoder();
let asciiScratch = new Uint8Array(0);

/** Whether `piece` is ASCII: its UTF-8 fits, one byte per character, in as many bytes. */
function isAsciiPiece(piece: string): boolean {
  if (asciiScratch.length < piece.length) asciiScratch = new Uint8Array(PIECE);
  const { read, written } = utf8.encodeInto(piece, asciiScratch.subarray(0, piece.length));
  return read === piece.length && written === piece.length;
}

/**
 * Decodes `text` into the lane's buffer piece by piece, publishing each piece to the worker, with
 * decodeBase64Url's rules (and errors). The ASCII check runs per piece too: Buffer keeps only
 * the low byte of a wider character, so "\u0142" would decode as "B". (TextEncoder.encodeInto on
 * a piece that is still in cache costs about half of Buffer.byteLength over the whole text.)
 */
function decodeCiphertext(lane: Lane, text: string): void {
  const { bytes } = lane;
  const length = text.length;
  let written = 0;
  for (let at = 0, size = FIRST_PIECE; at < length; at += size, size = PIECE) {
    const piece = text.slice(at, at + size);
    const expected = Math.floor((piece.length * 3) / 4);
    if (bytes.write(piece, DATA_OFFSET + written, expected, 'base64url') !== expected) {
      throw base64UrlErrors.alphabet(CIPHERTEXT);
    }
    written += expected;
    lane.publish(written);
    if (!isAsciiPiece(piece)) throw base64UrlErrors.alphabet(CIPHERTEXT);
  }
  // The rest of decodeBase64Url's rules, checked while the worker MACs.
  if (text.indexOf('+') !== -1 || text.indexOf('/') !== -1) throw base64UrlErrors.alphabet(CIPHERTEXT);
  if (!trailingBitsClear(text, length, URL_VALUES)) throw base64UrlErrors.trailingBits(CIPHERTEXT);
}

/**
 * How a file payload's blocks are shared: this thread decrypts and decodes blocks [0, split),
 * the worker the rest. `tailAt`: where the worker's bytes go in the file. Undefined if too small.
 */
function fileSplit(ciphertextLength: number): { split: number; tailAt: number } | undefined {
  const blocks = ciphertextLength / 16;
  const split = Math.min(blocks - 3, Math.floor(blocks * SPLIT));
  if (!Number.isInteger(blocks) || split < 2) return undefined;
  const headText = split * 16 - FILE_PREFIX.length;
  const rest = headText % 4;
  return { split, tailAt: ((headText - rest) / 4) * 3 + (rest > 0 ? 3 : 0) };
}

/**
 * The canonical file payload's bytes, decoded on both threads, or undefined for anything else
 * (the caller then decrypts on this thread and parses as on one thread). The worker has started
 * on its half by itself once its own tag check passed.
 */
function openFile(
  lane: Lane,
  key: NodeKey,
  iv: Uint8Array,
  ciphertext: Buffer,
  out: Buffer,
  { split, tailAt }: { split: number; tailAt: number },
): Buffer | undefined {
  const first = parallelSteps.decryptBlocks(key, iv, ciphertext.subarray(0, 16));
  if (first.compare(FILE_PREFIX, 0, FILE_PREFIX.length, 0, FILE_PREFIX.length) !== 0) return undefined;
  const headText = split * 16 - FILE_PREFIX.length;
  const rest = headText % 4;
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
  // Copy the worker's bytes out of shared memory as it writes them, while it still works on the
  // rest, rather than all of them once it is done (the copy was the last step of every call).
  const from = tailOffset(split, tailAt % 8);
  let copied = 0;
  const copyReady = () => {
    const ready = Atomics.load(lane.ctrl, SLOT.tailProgress);
    if (ready <= copied) return false;
    copied += lane.bytes.copy(out, tailAt + copied, from + copied, from + ready);
    return true;
  };
  for (let idleSince = performance.now(); !lane.isFinished(); ) {
    if (copyReady()) idleSince = performance.now();
    else if (performance.now() - idleSince > SPIN_MS) break;
  }
  if (!lane.finish(SPIN_MS)) return undefined;
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
  if (at !== tailAt || copied > tailBytes) return undefined;
  lane.bytes.copy(out, tailAt + copied, from + copied, from + tailBytes);
  return out.subarray(0, tailAt + tailBytes);
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
  const halves = file ? fileSplit(ciphertextLength) : undefined;
  const tail = halves && {
    tag,
    splitBlock: halves.split,
    outputShift: halves.tailAt % 8,
  };
  const lane = beginJob('open', file ? 'file' : 'raw', key, aad, iv, ciphertextLength, tail);
  if (!lane) return undefined;
  try {
    decodeCiphertext(lane, text);
    lane.command(COMMAND.go); // the text is valid: the worker may decrypt once its tag check passes
    const ciphertext = lane.bytes.subarray(DATA_OFFSET, DATA_OFFSET + ciphertextLength);
    // An upper bound for the file bytes: at least one padding byte and 11 bytes of JSON framing.
    const fileBound = Math.max(0, Math.floor((ciphertextLength - 12) / 4) * 3);
    const out = prefaulted(file ? fileBound : ciphertextLength);
    const workerMac = lane.mac();
    const expected = workerMac?.subarray(0, TAG_BYTES) ?? tagHere(key, aad, iv, ciphertext);
    const authentic = tag.length === TAG_BYTES && parallelSteps.compare(expected, tag);
    if (!authentic || ciphertextLength === 0 || ciphertextLength % 16 !== 0) throw decryptionFailed();
    if (halves && workerMac) {
      const bytes = openFile(lane, key, iv, ciphertext, out, halves);
      if (bytes) return { bytes, file: true };
    }
    lane.finish();
    // Everything else (raw payloads, and any file payload that is not in the canonical shape,
    // which the caller parses exactly as on one thread) is decrypted here, in ordinary memory.
    // The worker's half of a file payload overwrote its ciphertext: decode that again (rare).
    const whole = file ? Buffer.allocUnsafeSlow(ciphertextLength) : out;
    const source = lane.ctrl[SLOT.tailStarted] === 1 ? Buffer.from(text, 'base64url') : ciphertext;
    return { bytes: parallelSteps.decryptAll(key, iv, source, whole), file: false };
  } finally {
    lane.finish();
  }
}

export const parallelCrypto: ParallelCrypto = {
  sealFrom: SEAL_FROM,
  openFrom: OPEN_FROM,
  seal: (key, iv, plaintext, aad) => seal(key, iv, { bytes: plaintext }, aad),
  sealFile: (key, iv, file, aad) => seal(key, iv, { file }, aad),
  open,
};

/** For tests: whether the worker is up, how many jobs it was given, and a way to stop it. */
export const parallelWorker = {
  get ready(): boolean {
    checkStarted();
    return state === 'ready';
  },
  get jobs(): number {
    return jobs;
  },
  /** Whether the worker verified the last job's tag and went on to decrypt its half. */
  get lastTailStarted(): boolean {
    return lastTailStarted;
  },
  stop(): Promise<void> {
    const current = worker;
    dropWorker(current);
    if (state === 'off' && starts < MAX_STARTS) state = 'none';
    return current ? current.terminate().then(() => {}) : Promise.resolve();
  },
};
