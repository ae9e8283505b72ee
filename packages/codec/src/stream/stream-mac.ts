import type { Buffer } from 'node:buffer';
import { createHmac, type Hmac } from 'node:crypto';
import { MacLane, macWorkerState, warmMacWorker } from './mac-lane.js';

/**
 * Ciphertext a stream keeps before it asks for the worker. Below this a stream never touches
 * the worker (its own thread MACs it at the end), and a hand-off would cost more than it saves.
 */
const LANE_FROM = 1024 * 1024;
/**
 * Ciphertext after which a stream starts the worker (once per process), ahead of LANE_FROM:
 * streams shorter than this never cost a thread.
 */
const WARM_FROM = 256 * 1024;
/**
 * How much ciphertext a stream keeps while the worker is still starting (a first stream reaches
 * LANE_FROM in milliseconds; the worker takes some tens). Past this it stays on its own thread.
 * Only one stream waits like this at a time, so memory stays bounded however many run at once.
 */
const KEEP_AT_MOST = 24 * 1024 * 1024;
let waiting: WeakRef<StreamMac> | undefined;

// A stream dropped without being finished or cancelled gives the worker back when it is collected.
const abandoned = new FinalizationRegistry<MacLane>((lane) => lane.release());

/**
 * HMAC-SHA-256 of a stream's AAD, IV and ciphertext. At first it keeps copies of the ciphertext
 * without MACing them; past LANE_FROM, as soon as the MAC worker is up and free, it hands them
 * to the worker and from then on only copies pieces into its ring. If the worker is not free in
 * time, or the stream ends first, the calling thread MACs the copies and everything after them.
 * Either way each byte is MACed once, and the result is the same.
 */
export class StreamMac {
  private mac: Hmac | undefined;
  private lane: MacLane | undefined;
  /** The ciphertext so far, until the worker takes over or the stream is too long to keep it. */
  private seen: Uint8Array[] | undefined;
  private seenBytes = 0;

  /** `mayMove: false` keeps the MAC on this thread (a stream MACed under several AADs at once). */
  constructor(
    private readonly macKey: Uint8Array,
    private readonly head: readonly Uint8Array[],
    mayMove = true,
  ) {
    this.mac = createHmac('sha256', macKey);
    for (const part of head) this.mac.update(part);
    if (mayMove) this.seen = [];
  }

  /** MACs `bytes`; the caller may reuse them once the promise resolves. */
  async update(bytes: Uint8Array): Promise<void> {
    if (this.lane) return this.lane.push(bytes);
    if (!this.seen) {
      this.mac!.update(bytes);
      return;
    }
    // A copy (callers reuse their buffers), MACed here only if the worker never takes it.
    this.seen.push(Uint8Array.prototype.slice.call(bytes));
    this.seenBytes += bytes.length;
    if (this.seenBytes >= WARM_FROM) warmMacWorker();
    if (this.seenBytes < LANE_FROM) return;
    const state = macWorkerState();
    if (state === 'free') return this.handOver();
    if (state === 'starting' && this.seenBytes <= KEEP_AT_MOST && this.mayWait()) return;
    this.stayOnThread();
  }

  async digest(): Promise<Buffer> {
    if (!this.lane) {
      this.stayOnThread();
      return this.mac!.digest();
    }
    abandoned.unregister(this);
    return this.lane.digest();
  }

  /** Lets the worker go without a digest (the stream failed or was cancelled). */
  release(): void {
    this.dropCopies();
    if (!this.lane) return;
    abandoned.unregister(this);
    this.lane.release();
  }

  /** Whether this is the one stream that keeps copies while the worker starts. */
  private mayWait(): boolean {
    const other = waiting?.deref();
    if (other === undefined) waiting = new WeakRef(this);
    return other === undefined || other === this;
  }

  /** The MAC stays on this thread: it takes the copies kept so far, and no more are kept. */
  private stayOnThread(): void {
    for (const bytes of this.seen ?? []) this.mac!.update(bytes);
    this.dropCopies();
  }

  /** Drops the copies: the worker or this thread's MAC has them, or the stream is given up. */
  private dropCopies(): void {
    this.seen = undefined;
    if (waiting?.deref() === this) waiting = undefined;
  }

  private async handOver(): Promise<void> {
    const lane = MacLane.acquire(this.macKey, [...this.head]);
    if (!lane) return;
    const seen = this.seen!;
    this.dropCopies();
    this.lane = lane;
    abandoned.register(this, lane, this);
    for (const bytes of seen) await lane.push(bytes);
    this.mac = undefined;
  }
}
