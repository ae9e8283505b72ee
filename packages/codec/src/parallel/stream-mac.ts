import { Buffer } from 'node:buffer';
import { createHmac, type Hmac } from 'node:crypto';
import { aadLengthBlock, TAG_BYTES } from '../cbc-hmac.js';
import type { StreamMessage, StreamReply } from './protocol.js';

/*
 * The HMACs of a stream (one per AAD candidate), computed on the helper worker beside the
 * stream's AES and base64 work. Ciphertext is copied into 1 MiB batches that travel to the worker
 * and back by transfer (no copies, no shared memory); at most BATCHES of them are in flight, and
 * `ready()` makes the stream wait for the worker when it falls behind, so memory stays bounded.
 *
 * The worker starts on the first large call in a process, which takes tens of milliseconds. A
 * stream that begins before it is up keeps its first batches and MACs them here if it ends first
 * (small streams never wait); once it has more than HOLD_BATCHES, it waits for the worker. If no
 * worker can run, or it is busy with a failure, the MACs run here as before.
 */

export const STREAM_BATCH = 1024 * 1024;
const BATCHES = 3;
const HOLD_BATCHES = 4;

/** What a stream needs from the worker; parallel/node.ts provides it. */
export interface StreamWorkerLink {
  /** The worker if it is up; undefined while it starts or when there is none (it may be starting now). */
  ready(): StreamWorkerPort | undefined;
  /** Resolves with the worker once it is up, or undefined when there will be none. */
  whenReady(): Promise<StreamWorkerPort | undefined>;
  /**
   * Keeps the process alive while a stream waits for the worker (it is unref'ed otherwise);
   * returns the release.
   */
  hold(): () => void;
}

export interface StreamWorkerPort {
  post(message: StreamMessage, transfer?: ArrayBuffer[]): void;
  /** Registers the handler for this stream's replies; `fail` runs if the worker dies. */
  listen(id: number, reply: (message: StreamReply) => void, fail: (error: Error) => void): void;
  forget(id: number): void;
}

let nextStreamId = 1;

/** For tests: batches sent to the worker so far, and streams it holds state for. */
export const streamMacStats = { batches: 0, open: 0 };

export class StreamMac {
  private local: Hmac[] | undefined;
  private port: StreamWorkerPort | undefined;
  private readonly id = nextStreamId++;
  private batch: Buffer | undefined;
  private filled = 0;
  private readonly free: ArrayBuffer[] = [];
  private inFlight = 0;
  private held: Buffer[] = [];
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private done: ((digests: Uint8Array[]) => void) | undefined;
  private total = 0;

  constructor(
    private readonly link: StreamWorkerLink | undefined,
    private readonly macKey: Uint8Array,
    private readonly aads: readonly Uint8Array[],
    private readonly iv: Uint8Array,
  ) {
    // Streams that stay under one batch never involve the worker.
    if (!link) this.goLocal();
  }

  /** Bytes seen so far. */
  get length(): number {
    return this.total;
  }

  /** Takes `bytes` at once (the caller may reuse them when this returns). */
  update(bytes: Uint8Array): void {
    this.total += bytes.length;
    if (this.local) {
      for (const mac of this.local) mac.update(bytes);
      return;
    }
    for (let at = 0; at < bytes.length; ) {
      this.batch ??= Buffer.from(this.free.pop() ?? new ArrayBuffer(STREAM_BATCH));
      const n = Math.min(bytes.length - at, STREAM_BATCH - this.filled);
      this.batch.set(bytes.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === STREAM_BATCH) this.flush();
    }
  }

  /**
   * Resolves once the stream may go on: at once unless the worker is behind, or a stream that
   * began before the worker was up has held back enough batches (then it waits for the worker).
   */
  ready(): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.local) return undefined;
    if (!this.port) {
      if (this.held.length < HOLD_BATCHES) return undefined;
      return this.waiting(this.link!.whenReady()).then((port) => {
        if (this.local) return;
        if (port) this.attach(port);
        else this.goLocal();
      });
    }
    if (this.inFlight < BATCHES) return undefined;
    return this.waiting(
      new Promise<void>((resolve) => {
        this.wake = resolve;
      }),
    ).then(() => {
      if (this.failure) throw this.failure;
    });
  }

  /** The truncated tags, one per AAD candidate, in order. */
  async tags(): Promise<Buffer[]> {
    if (!this.local && !this.port) {
      // Never attached: use the worker if it is up by now and there is a batch for it, else
      // MAC what was held here.
      const port = this.held.length > 0 ? this.link!.ready() : undefined;
      if (port) this.attach(port);
      else this.goLocal();
    }
    if (this.local) {
      return this.local.map((mac, i) =>
        mac.update(aadLengthBlock(this.aads[i]!.length)).digest().subarray(0, TAG_BYTES),
      );
    }
    if (this.filled > 0) this.flush();
    if (this.failure) throw this.failure;
    const digests = await this.waiting(
      new Promise<Uint8Array[]>((resolve) => {
        this.done = resolve;
        this.port!.post({ type: 'stream-close', id: this.id });
      }),
    );
    this.closed();
    if (this.failure) throw this.failure;
    this.port!.forget(this.id);
    return digests.map((digest) => Buffer.from(digest).subarray(0, TAG_BYTES));
  }

  /** Stops the stream's work on the worker (after a failure elsewhere). */
  dispose(): void {
    if (this.port && !this.done) {
      this.port.post({ type: 'stream-abort', id: this.id });
      this.port.forget(this.id);
      this.closed();
    }
    this.held = [];
    this.batch = undefined;
  }

  private isOpen = false;

  /** `promise`, with the process kept alive until it settles (it waits for the worker). */
  private waiting<T>(promise: Promise<T>): Promise<T> {
    const release = this.link!.hold();
    return promise.finally(release);
  }

  private closed(): void {
    if (this.isOpen) streamMacStats.open--;
    this.isOpen = false;
  }

  private goLocal(): void {
    this.local = this.aads.map((aad) => createHmac('sha256', this.macKey).update(aad).update(this.iv));
    for (const batch of this.held) for (const mac of this.local) mac.update(batch);
    this.held = [];
    if (this.batch && this.filled > 0) {
      for (const mac of this.local) mac.update(this.batch.subarray(0, this.filled));
    }
    this.batch = undefined;
    this.filled = 0;
  }

  private attach(port: StreamWorkerPort): void {
    this.port = port;
    this.isOpen = true;
    streamMacStats.open++;
    port.listen(
      this.id,
      (message) => this.onReply(message),
      (error) => this.onFailure(error),
    );
    port.post({
      type: 'stream-open',
      id: this.id,
      macKey: new Uint8Array(this.macKey),
      aads: this.aads.map((aad) => new Uint8Array(aad)),
      iv: new Uint8Array(this.iv),
    });
    const held = this.held;
    this.held = [];
    for (const batch of held) this.send(batch, batch.length);
  }

  private flush(): void {
    const batch = this.batch!;
    const length = this.filled;
    this.batch = undefined;
    this.filled = 0;
    if (!this.port) {
      const port = this.link!.ready(); // starts the worker if there is none yet
      if (port) this.attach(port);
    }
    if (this.port) this.send(batch, length);
    else this.held.push(batch.subarray(0, length));
  }

  private send(batch: Buffer, length: number): void {
    this.inFlight++;
    streamMacStats.batches++;
    const buffer = batch.buffer as ArrayBuffer;
    this.port!.post({ type: 'stream-data', id: this.id, buffer, length }, [buffer]);
  }

  private onReply(message: StreamReply): void {
    if (message.type === 'stream-ack') {
      this.inFlight--;
      if (this.free.length < BATCHES) this.free.push(message.buffer);
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    } else if (message.type === 'stream-digests') {
      this.done?.(message.digests);
    }
  }

  private onFailure(error: Error): void {
    this.failure = error;
    this.closed();
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
    this.done?.([]);
  }
}
