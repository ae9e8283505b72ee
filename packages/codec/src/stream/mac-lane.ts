import { Buffer } from 'node:buffer';
import { Worker } from 'node:worker_threads';
import {
  DIGEST_BYTE,
  END_OF_INPUT,
  MAC_CTRL,
  MAC_CTRL_BYTES,
  MAC_CTRL_INTS,
  MAC_STATE,
  type MacJob,
  type MacRing,
  macWorkerSource,
} from './mac-worker.js';

/*
 * One worker per process MACs one stream at a time, beside the thread that encrypts or decrypts
 * it. AES-128-CBC and HMAC-SHA-256 are each serial and about equally fast here, and together
 * they are most of a stream's time on its thread. The streaming thread copies each ciphertext
 * piece into a ring of shared slots; the worker MACs the slots in order. A stream that finds the
 * worker busy (another stream has it) MACs on its own thread, as every stream did before.
 */

/** Slots hold one piece each: at most 64 KiB of file as base64 and its CBC padding (87,392 bytes). */
const SLOT_BYTES = 96 * 1024;
/**
 * 1.5 MiB of ring: a stream hands over only once the worker is up, so the ring need not absorb
 * its start-up, and a ring this size stays in cache (measured against 64 slots: 253-264 against
 * 240-269 MB/s for 256 MiB encryption, four interleaved runs).
 */
const SLOT_COUNT = 16;
const MAX_STARTS = 3;

/** `Atomics.waitAsync` (Node 16+), which TypeScript's lib types only from ES2024 on. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(
      array: Int32Array,
      index: number,
      value: number,
      timeout: number,
    ): { async: false; value: string } | { async: true; value: Promise<string> };
  }
).waitAsync;
/** Wait in slices, to notice a worker that died. */
const WAIT_SLICE_MS = 250;

interface MacWorker {
  readonly worker: Worker;
  /** Set to 1 by the worker once it takes jobs. */
  readonly up: Int32Array;
  readonly data: Buffer;
  readonly lengths: Int32Array;
  /** The lane that holds the worker, if any. */
  holder: MacLane | undefined;
  dead: boolean;
}

let current: MacWorker | undefined;
let starts = 0;
let jobs = 0;

/** How many streams have had their MAC computed on the worker so far (for tests). */
export function macWorkerJobCount(): number {
  return jobs;
}

function startWorker(): MacWorker | undefined {
  if (starts >= MAX_STARTS) return undefined;
  starts++;
  const ring: MacRing = {
    data: new SharedArrayBuffer(SLOT_BYTES * SLOT_COUNT),
    lengths: new SharedArrayBuffer(SLOT_COUNT * 4),
    slotBytes: SLOT_BYTES,
    slots: SLOT_COUNT,
    up: new SharedArrayBuffer(4),
  };
  try {
    const worker = new Worker(macWorkerSource(), {
      eval: true,
      name: 'jwe-transport stream MAC',
      workerData: ring,
    });
    const started: MacWorker = {
      worker,
      up: new Int32Array(ring.up),
      data: Buffer.from(ring.data),
      lengths: new Int32Array(ring.lengths),
      holder: undefined,
      dead: false,
    };
    const drop = () => {
      started.dead = true;
      if (current === started) current = undefined;
      // A stream waiting on it must learn now, not when its wait times out.
      started.holder?.wake();
    };
    worker.on('error', drop);
    worker.once('exit', drop);
    // It must never keep a process alive; a lane refs it only while it waits on it.
    worker.unref();
    return started;
  } catch {
    return undefined;
  }
}

/** Starts the worker ahead of need: it takes some tens of milliseconds to come up. */
export function warmMacWorker(): void {
  current ??= startWorker();
}

/**
 * `off`: none (it failed to start MAX_STARTS times); `starting`: not taking jobs yet; `free`:
 * `MacLane.acquire` would succeed; `busy`: another stream holds it.
 */
export type MacWorkerState = 'off' | 'starting' | 'free' | 'busy';

export function macWorkerState(): MacWorkerState {
  const owner = current;
  if (owner === undefined || owner.dead) return 'off';
  if (Atomics.load(owner.up, 0) !== 1) return 'starting';
  return owner.holder ? 'busy' : 'free';
}

/** A stream's hold on the worker: its bytes go to the worker's MAC until `digest` or `release`. */
export class MacLane {
  private readonly ctrl: Int32Array;
  private written = 0;
  private released = false;

  private constructor(
    private readonly owner: MacWorker,
    private readonly job: MacJob,
  ) {
    this.ctrl = new Int32Array(job.ctrl, 0, MAC_CTRL_INTS);
  }

  /** The worker, if it is up and free, MACing `macKey` over `head` and then whatever is pushed. */
  static acquire(macKey: Uint8Array, head: Uint8Array[]): MacLane | undefined {
    if (macWorkerState() !== 'free') return undefined;
    const owner = current!;
    // Fresh copies: a Buffer's view may sit in a pooled ArrayBuffer that holds unrelated data.
    const job: MacJob = {
      ctrl: new SharedArrayBuffer(MAC_CTRL_BYTES),
      macKey: new Uint8Array(macKey),
      head: head.map((part) => new Uint8Array(part)),
    };
    const lane = new MacLane(owner, job);
    owner.holder = lane;
    owner.worker.postMessage(job);
    jobs++;
    return lane;
  }

  /** Copies `bytes` into the ring (waiting for a free slot if needed); they may be reused at once after. */
  async push(bytes: Uint8Array): Promise<void> {
    for (let at = 0; at < bytes.length; at += SLOT_BYTES) {
      const end = Math.min(bytes.length, at + SLOT_BYTES);
      const slot = await this.freeSlot();
      this.owner.data.set(bytes.subarray(at, end), slot * SLOT_BYTES);
      this.publish(slot, end - at);
    }
  }

  /** The HMAC of everything pushed; the worker is free for another stream after. */
  async digest(): Promise<Buffer> {
    this.publish(await this.freeSlot(), END_OF_INPUT);
    await this.waitWhile(MAC_CTRL.state, MAC_STATE.running);
    const digest = Buffer.from(new Uint8Array(this.job.ctrl, DIGEST_BYTE, 32));
    this.release();
    return digest;
  }

  /** Gives the worker up without a digest (the stream failed or was cancelled). */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (Atomics.load(this.ctrl, MAC_CTRL.state) === MAC_STATE.running) {
      Atomics.store(this.ctrl, MAC_CTRL.cancel, 1);
      Atomics.notify(this.ctrl, MAC_CTRL.written);
    }
    // The worker takes jobs in order: the next one starts once this one's loop has ended.
    if (this.owner.holder === this) this.owner.holder = undefined;
  }

  /** Wakes this lane's waits (the worker died). */
  wake(): void {
    Atomics.notify(this.ctrl, MAC_CTRL.consumed);
    Atomics.notify(this.ctrl, MAC_CTRL.state);
  }

  private publish(slot: number, length: number): void {
    this.owner.lengths[slot] = length;
    this.written++;
    Atomics.store(this.ctrl, MAC_CTRL.written, this.written);
    Atomics.notify(this.ctrl, MAC_CTRL.written);
  }

  private async freeSlot(): Promise<number> {
    while (this.written - Atomics.load(this.ctrl, MAC_CTRL.consumed) >= SLOT_COUNT) {
      await this.waitWhile(MAC_CTRL.consumed, Atomics.load(this.ctrl, MAC_CTRL.consumed));
    }
    return this.written % SLOT_COUNT;
  }

  /** Waits until `slot` no longer holds `value`, keeping the process alive meanwhile. */
  private async waitWhile(slot: number, value: number): Promise<void> {
    if (Atomics.load(this.ctrl, slot) !== value) return;
    // Atomics.waitAsync alone does not keep a process alive, and the worker is unref'd.
    this.owner.worker.ref();
    try {
      while (Atomics.load(this.ctrl, slot) === value) {
        if (this.owner.dead || this.released) {
          throw new Error(
            'The stream MAC worker stopped before it finished; the stream cannot be completed.',
          );
        }
        const wait = waitAsync(this.ctrl, slot, value, WAIT_SLICE_MS);
        if (wait.async) await wait.value;
      }
    } finally {
      this.owner.worker.unref();
    }
  }
}
