import { Worker } from 'node:worker_threads';

/*
 * One long-lived worker thread that MACs ciphertext beside the thread doing AES, and does the
 * ciphertext's base64url work there too (encode when encrypting; decode when decrypting), which
 * roughly halves the work on the calling thread. It serves every stream of the process (each
 * under its own job id) and is unref'd whenever no reply is awaited, so it never keeps the
 * process alive. Its source is inline so the package needs no extra file for it.
 * Strictness stays on the calling thread: the worker decodes leniently and reports how many bytes
 * it got, and the caller rejects any shortfall exactly as the one-shot decoder does.
 */
const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const { createHmac } = require('node:crypto');
const { Buffer } = require('node:buffer');
const jobs = new Map();
const view = (u) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
const EMPTY = Buffer.alloc(0);
// Strings of at most 64 KiB stay out of V8's large-object space (see base64-stream.ts).
function encodeInto(out, at, bytes) {
  let written = 0;
  for (let from = 0; from < bytes.length; from += 49152) {
    written += out.write(bytes.toString('base64url', from, Math.min(bytes.length, from + 49152)), at + written, 'latin1');
  }
  return written;
}
function decodeInto(out, at, text) {
  let written = 0;
  for (let from = 0; from < text.length; from += 65536) {
    written += out.write(text.toString('latin1', from, Math.min(text.length, from + 65536)), at + written, 'base64url');
  }
  return written;
}
function encode(job, data, last) {
  for (const mac of job.macs) mac.update(data);
  let head = EMPTY;
  let rest = data;
  if (job.carry.length > 0) {
    const take = Math.min(3 - job.carry.length, data.length);
    head = Buffer.concat([job.carry, data.subarray(0, take)]);
    rest = data.subarray(take);
    if (head.length < 3 && !last) {
      job.carry = head;
      return Buffer.allocUnsafeSlow(0);
    }
  }
  const cut = last ? rest.length : rest.length - (rest.length % 3);
  job.carry = Buffer.from(rest.subarray(cut));
  const body = rest.subarray(0, cut);
  const out = Buffer.allocUnsafeSlow(Math.ceil((head.length * 4) / 3) + Math.ceil((body.length * 4) / 3));
  encodeInto(out, encodeInto(out, 0, head), body);
  return out;
}
parentPort.on('message', (m) => {
  try {
    const job = jobs.get(m.id);
    if (m.op === 'start') {
      const macs = m.aads.map((aad) => createHmac('sha256', view(m.macKey)).update(view(aad)).update(view(m.iv)));
      jobs.set(m.id, { macs, als: m.als, carry: EMPTY });
    } else if (m.op === 'mac') {
      for (const mac of job.macs) mac.update(view(m.data));
    } else if (m.op === 'encode') {
      const out = encode(job, view(m.data), m.last);
      parentPort.postMessage({ req: m.req, data: out }, [out.buffer]);
    } else if (m.op === 'decode') {
      const head = view(m.head);
      const out = Buffer.allocUnsafeSlow(head.length + (m.body.length / 4) * 3);
      head.copy(out, 0);
      const written = head.length + decodeInto(out, head.length, view(m.body));
      const bytes = out.subarray(0, written);
      for (const mac of job.macs) mac.update(bytes);
      parentPort.postMessage({ req: m.req, data: out, written }, [out.buffer]);
    } else if (m.op === 'finish') {
      const tags = job.macs.map((mac, i) => new Uint8Array(mac.update(view(job.als[i])).digest()));
      jobs.delete(m.id);
      parentPort.postMessage({ req: m.req, tags });
    } else if (m.op === 'drop') {
      jobs.delete(m.id);
    }
  } catch (error) {
    if (m.req !== undefined) parentPort.postMessage({ req: m.req, error: String(error && error.message) });
  }
});
`;

export interface WorkerReply {
  data?: Uint8Array;
  written?: number;
  tags?: Uint8Array[];
}

interface Waiter {
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

/** A buffer that can be transferred: it owns its whole, non-shared ArrayBuffer (else a copy). */
export function transferable(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const { buffer } = bytes;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) {
    return bytes as Uint8Array<ArrayBuffer>;
  }
  // A copy: `slice` on a Node Buffer would be a view of the same memory.
  return new Uint8Array(bytes);
}

class MacWorker {
  private worker: Worker | undefined;
  private readonly waiting = new Map<number, Waiter>();
  private nextRequest = 1;
  private nextJob = 1;

  /** Starts a MAC job over `aads` (one HMAC each); false if no worker thread can be had here. */
  start(macKey: Uint8Array, iv: Uint8Array, aads: Uint8Array[], als: Uint8Array[]): number | undefined {
    const worker = this.ensure();
    if (!worker) return undefined;
    const id = this.nextJob++;
    worker.postMessage({ op: 'start', id, macKey, iv, aads, als });
    return id;
  }

  post(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): void {
    this.worker?.postMessage(message, transfer);
  }

  request(message: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<WorkerReply> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new Error('The MAC worker thread is not running.'));
    const req = this.nextRequest++;
    return new Promise<WorkerReply>((resolve, reject) => {
      this.waiting.set(req, { resolve, reject });
      if (this.waiting.size === 1) worker.ref();
      worker.postMessage({ ...message, req }, transfer);
    });
  }

  private ensure(): Worker | undefined {
    if (this.worker) return this.worker;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
    } catch {
      return undefined;
    }
    worker.unref();
    worker.on('message', (reply: WorkerReply & { req: number; error?: string }) => {
      const waiter = this.waiting.get(reply.req);
      if (!waiter) return;
      this.waiting.delete(reply.req);
      if (this.waiting.size === 0) worker.unref();
      if (reply.error !== undefined) waiter.reject(new Error(`MAC worker: ${reply.error}`));
      else waiter.resolve(reply);
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The MAC worker thread exited (code ${code}).`)));
    this.worker = worker;
    return worker;
  }
}

export const macWorker = new MacWorker();
