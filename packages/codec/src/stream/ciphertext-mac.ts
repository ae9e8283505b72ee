import { Buffer } from 'node:buffer';
import { createHmac, type Hmac } from 'node:crypto';
import { aadLengthBlock } from '../cbc-hmac.js';
import { Base64StreamEncoder, decodeInto } from './base64-stream.js';
import { macWorker, transferable } from './mac-worker.js';

/**
 * The HMAC side of A128CBC-HS256 (over AAD || IV || ciphertext || AL, one HMAC per AAD candidate)
 * together with the ciphertext's base64url, which sits on the same bytes. It runs on a worker
 * thread beside the AES work when it can (`createCiphertextMac(..., true)`), or on the calling
 * thread. Calls are answered in the order they were made.
 */
export interface CiphertextMac {
  /** Encrypting: MACs ciphertext and returns its base64url text; `last` adds the final 0-2 bytes. */
  encode(ciphertext: Uint8Array, last: boolean): Promise<Uint8Array>;
  /**
   * Decrypting: decodes `body` (whole groups of base64url text, alphabet already checked) after
   * the already-decoded `head`, and MACs the result. `written` is short of `bytes.length` when the
   * text held characters outside the alphabet; the caller must then reject it.
   */
  decode(head: Uint8Array, body: Uint8Array): Promise<{ bytes: Buffer; written: number }>;
  /** MACs decoded ciphertext; the caller may reuse `ciphertext` once this returns. */
  update(ciphertext: Uint8Array): void;
  /** The full HMAC-SHA-256 for each AAD candidate. */
  finish(): Promise<Uint8Array[]>;
  /** Releases the worker's state for a stream that ends without `finish`. */
  dispose(): void;
}

class LocalMac implements CiphertextMac {
  private readonly macs: Hmac[];
  private readonly base64 = new Base64StreamEncoder('base64url');

  constructor(
    macKey: Uint8Array,
    iv: Uint8Array,
    private readonly aads: readonly Uint8Array[],
  ) {
    this.macs = aads.map((aad) => createHmac('sha256', macKey).update(aad).update(iv));
  }

  async encode(ciphertext: Uint8Array, last: boolean): Promise<Uint8Array> {
    this.update(ciphertext);
    const text = this.base64.push(ciphertext);
    return last ? Buffer.concat([text, this.base64.end()]) : text;
  }

  async decode(head: Uint8Array, body: Uint8Array): Promise<{ bytes: Buffer; written: number }> {
    const bytes = Buffer.allocUnsafe(head.length + (body.length / 4) * 3);
    bytes.set(head, 0);
    const written = head.length + decodeInto(bytes, head.length, body, 'base64url');
    this.update(bytes.subarray(0, written));
    return { bytes, written };
  }

  update(ciphertext: Uint8Array): void {
    for (const mac of this.macs) mac.update(ciphertext);
  }

  async finish(): Promise<Uint8Array[]> {
    return this.macs.map((mac, i) => mac.update(aadLengthBlock(this.aads[i]!.length)).digest());
  }

  dispose(): void {}
}

class WorkerMac implements CiphertextMac {
  constructor(private readonly id: number) {}

  async encode(ciphertext: Uint8Array, last: boolean): Promise<Uint8Array> {
    const data = transferable(ciphertext);
    const reply = await macWorker.request({ op: 'encode', id: this.id, data, last }, [data.buffer]);
    return Buffer.from(reply.data!.buffer, reply.data!.byteOffset, reply.data!.byteLength);
  }

  async decode(head: Uint8Array, body: Uint8Array): Promise<{ bytes: Buffer; written: number }> {
    const text = transferable(body);
    // `head` is 0-3 bytes, often a view of Buffer's 8 KiB pool: send a copy of just those bytes.
    const message = { op: 'decode', id: this.id, head: new Uint8Array(head), body: text };
    const reply = await macWorker.request(message, [text.buffer]);
    const bytes = Buffer.from(reply.data!.buffer, reply.data!.byteOffset, reply.data!.byteLength);
    return { bytes, written: reply.written! };
  }

  update(ciphertext: Uint8Array): void {
    const data = new Uint8Array(ciphertext);
    macWorker.post({ op: 'mac', id: this.id, data }, [data.buffer]);
  }

  async finish(): Promise<Uint8Array[]> {
    return (await macWorker.request({ op: 'finish', id: this.id })).tags!;
  }

  dispose(): void {
    macWorker.post({ op: 'drop', id: this.id });
  }
}

/** `key` is the 32-byte content key; its first half is the MAC key. */
export function createCiphertextMac(
  key: Uint8Array,
  iv: Uint8Array,
  aads: readonly Uint8Array[],
  useWorker: boolean,
): CiphertextMac {
  const macKey = key.subarray(0, 16);
  if (useWorker) {
    const als = aads.map((aad) => aadLengthBlock(aad.length));
    const id = macWorker.start(
      new Uint8Array(macKey),
      new Uint8Array(iv),
      aads.map((aad) => new Uint8Array(aad)),
      als,
    );
    if (id !== undefined) return new WorkerMac(id);
  }
  return new LocalMac(macKey, iv, aads);
}
