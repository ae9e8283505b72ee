import { isJweError } from '../errors.js';
import { Base64StreamDecoder } from './base64-stream.js';
import { type CiphertextMac, createCiphertextMac } from './ciphertext-mac.js';
import type { CipherPlan } from './envelope-header.js';
import { FilePayloadDecoder } from './file-payload-stream.js';
import { StreamOpener } from './node-cbc-hmac-stream.js';
import type { Sink } from './sink.js';
import type { SizeLimit } from './size-limit.js';

/** Turns decrypted plaintext into what the sink receives: itself (raw) or the decoded file. */
interface PlaintextReader {
  push(plaintext: Uint8Array): Uint8Array[];
  end(): void;
}

const rawReader: PlaintextReader = {
  push: (plaintext) => (plaintext.length > 0 ? [plaintext] : []),
  end() {},
};

/** Chunks of ciphertext being decoded and MACed (possibly on the worker) ahead of AES. */
const DEPTH = 6;

/**
 * Decrypts the ciphertext into the sink while it is MACed, then checks the tag. Ciphertext comes
 * as base64url text (`pushText`, while the envelope streams) or as bytes (`pushBytes`, replayed
 * from a spill file). A payload that turns out malformed before the tag is checked is not
 * reported at once: the rest is still MACed, so a tampered envelope always fails as
 * `ERR_JWE_DECRYPTION_FAILED`, and a malformed payload is reported only when it is authentic,
 * as the one-shot `decryptFile` does.
 */
export class CiphertextConsumer {
  private readonly mac: CiphertextMac;
  private readonly opener: StreamOpener;
  private readonly reader: PlaintextReader;
  private readonly text = new Base64StreamDecoder('base64url', 'The "ciphertext" member');
  private readonly queue: Promise<Uint8Array>[] = [];
  private deferred: unknown;
  private failed = false;
  bytes = 0;

  constructor(
    readonly plan: CipherPlan,
    mode: 'raw' | 'file',
    private readonly sink: Sink,
    private readonly limit: SizeLimit,
    useWorker: boolean,
  ) {
    this.mac = createCiphertextMac(plan.key, plan.iv, plan.aads, useWorker);
    this.opener = new StreamOpener(plan.key, plan.iv, this.mac);
    this.reader = mode === 'raw' ? rawReader : new FilePayloadDecoder();
  }

  /** Base64url text of the `ciphertext` member, in order. */
  pushText(text: Uint8Array): Promise<void> {
    const { head, body } = this.text.split(text);
    if (head.length + body.length === 0) return Promise.resolve();
    this.limit.addCiphertext(head.length + (body.length / 4) * 3);
    if (body.length === 0) return this.pushBytes(head);
    const decoded = this.mac
      .decode(head, body)
      .then(({ bytes, written }) => this.text.checkDecoded(bytes, written));
    return this.enqueue(decoded);
  }

  /** The end of the `ciphertext` member's text. */
  endText(): Promise<void> {
    const last = this.text.end();
    this.limit.addCiphertext(last.length);
    return this.pushBytes(last);
  }

  /** Decoded ciphertext; `ciphertext` may be reused by the caller once this returns. */
  pushBytes(ciphertext: Uint8Array): Promise<void> {
    if (ciphertext.length === 0) return Promise.resolve();
    const copy = new Uint8Array(ciphertext);
    this.mac.update(copy);
    return this.enqueue(Promise.resolve(copy));
  }

  /** Resolves with the index of the AAD candidate that authenticated. */
  async finish(tag: Uint8Array): Promise<number> {
    await this.drain(0);
    const { plaintext, aadIndex } = await this.opener.final(tag);
    await this.deliver(plaintext);
    if (!this.failed) this.read(() => this.reader.end());
    if (this.failed) throw this.deferred;
    return aadIndex;
  }

  dispose(): void {
    this.mac.dispose();
  }

  private enqueue(ciphertext: Promise<Uint8Array>): Promise<void> {
    // Awaited in order by `drain`; until then a rejection must not count as unhandled.
    ciphertext.catch(() => {});
    this.queue.push(ciphertext);
    return this.drain(DEPTH);
  }

  private async drain(depth: number): Promise<void> {
    while (this.queue.length > depth) {
      const ciphertext = await this.queue.shift()!;
      await this.deliver(this.opener.update(ciphertext));
    }
  }

  private async deliver(plaintext: Uint8Array): Promise<void> {
    if (this.failed) return;
    const out = this.read(() => this.reader.push(plaintext));
    for (const chunk of out ?? []) {
      this.limit.addContent(chunk.length);
      await this.sink.write(chunk);
      this.bytes += chunk.length;
    }
  }

  private read<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      if (!isJweError(error)) throw error;
      this.failed = true;
      this.deferred = error;
      return undefined;
    }
  }
}
