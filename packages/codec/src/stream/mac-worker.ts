import type * as NodeCrypto from 'node:crypto';
import type { MessagePort } from 'node:worker_threads';

/** Int32 slots of a job's control block (`MacJob.ctrl`); its digest follows at DIGEST_BYTE. */
export const MAC_CTRL = {
  /** Slots the streaming thread has filled so far. */
  written: 0,
  /** Slots the worker has MACed so far (each may be refilled once MACed). */
  consumed: 1,
  /** 1 once the digest is written, 2 once the worker has dropped a cancelled job. */
  state: 2,
  /** Set to 1 by the streaming thread to make the worker drop the job. */
  cancel: 3,
} as const;
export const MAC_STATE = { running: 0, digested: 1, dropped: 2 } as const;
export const MAC_CTRL_INTS = 4;
export const DIGEST_BYTE = MAC_CTRL_INTS * 4;
export const MAC_CTRL_BYTES = DIGEST_BYTE + 32;
/** A slot length that marks the end of the MACed bytes. */
export const END_OF_INPUT = -1;

/** One stream's MAC. Keys travel by message, never through the shared ring. */
export interface MacJob {
  ctrl: SharedArrayBuffer;
  macKey: Uint8Array;
  /** Bytes MACed before the ring's (the AAD and the IV). */
  head: Uint8Array[];
}

/** The worker's `workerData`: the ring it reads, and a flag it sets once it takes jobs. */
export interface MacRing {
  data: SharedArrayBuffer;
  lengths: SharedArrayBuffer;
  slotBytes: number;
  slots: number;
  up: SharedArrayBuffer;
}

/*
 * The MAC worker's whole program, run from source text (`new Worker(code, { eval: true })`), so
 * it closes over nothing: node:crypto and the constants come in as arguments. One job at a time:
 * a job's handler MACs ring slots as the streaming thread fills them, until the end marker
 * (the digest goes into the job's control block) or a cancel.
 */
function macWorkerMain(
  port: MessagePort,
  crypto: typeof NodeCrypto,
  ring: MacRing,
  k: { CTRL: typeof MAC_CTRL; STATE: typeof MAC_STATE; DIGEST_BYTE: number; END: number },
): void {
  const data = new Uint8Array(ring.data);
  const lengths = new Int32Array(ring.lengths);
  port.on('message', (job: MacJob) => {
    const ctrl = new Int32Array(job.ctrl, 0, 4);
    const mac = crypto.createHmac('sha256', job.macKey);
    for (const part of job.head) mac.update(part);
    let read = 0;
    for (;;) {
      const written = Atomics.load(ctrl, k.CTRL.written);
      if (Atomics.load(ctrl, k.CTRL.cancel) === 1) {
        Atomics.store(ctrl, k.CTRL.state, k.STATE.dropped);
        Atomics.notify(ctrl, k.CTRL.state);
        return;
      }
      if (read === written) {
        Atomics.wait(ctrl, k.CTRL.written, written);
        continue;
      }
      const slot = read % ring.slots;
      const length = lengths[slot]!;
      if (length === k.END) {
        new Uint8Array(job.ctrl, k.DIGEST_BYTE, 32).set(mac.digest());
        Atomics.store(ctrl, k.CTRL.state, k.STATE.digested);
        Atomics.notify(ctrl, k.CTRL.state);
        return;
      }
      mac.update(data.subarray(slot * ring.slotBytes, slot * ring.slotBytes + length));
      read++;
      Atomics.store(ctrl, k.CTRL.consumed, read);
      Atomics.notify(ctrl, k.CTRL.consumed);
    }
  });
  // Through shared memory, not a message: a streaming thread looks at it between pieces.
  Atomics.store(new Int32Array(ring.up), 0, 1);
}

/**
 * Source text for `new Worker(code, { eval: true, workerData: ring })`. Dynamic imports, not
 * require: eval'd worker code inherits the parent's `--input-type=module`, where require is undefined.
 */
export function macWorkerSource(): string {
  const constants = { CTRL: MAC_CTRL, STATE: MAC_STATE, DIGEST_BYTE, END: END_OF_INPUT };
  return `Promise.all([import('node:worker_threads'), import('node:crypto')]).then(([threads, crypto]) => (${macWorkerMain.toString()})(threads.parentPort, crypto, threads.workerData, ${JSON.stringify(constants)}));`;
}
