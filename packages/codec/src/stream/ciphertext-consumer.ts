import { isJweError } from '../errors.js';
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

/**
 * Decrypts ciphertext chunks into the sink while MACing them, then checks the tag. A payload
 * that turns out malformed before the tag is checked is not reported at once: the rest is still
 * MACed, so a tampered envelope always fails as `ERR_JWE_DECRYPTION_FAILED`, and a malformed
 * payload is reported only when it is authentic, as in the one-shot `decryptFile`.
 */
export class CiphertextConsumer {
  private readonly opener: StreamOpener;
  private readonly reader: PlaintextReader;
  private deferred: unknown;
  private failed = false;
  bytes = 0;

  constructor(
    readonly plan: CipherPlan,
    mode: 'raw' | 'file',
    private readonly sink: Sink,
    private readonly limit: SizeLimit,
  ) {
    this.opener = new StreamOpener(plan.key, plan.iv, plan.aads);
    this.reader = mode === 'raw' ? rawReader : new FilePayloadDecoder();
  }

  /** Decoded ciphertext, in order; the caller may reuse `ciphertext` once this returns. */
  update(ciphertext: Uint8Array): Promise<void> {
    return this.deliver(this.opener.update(ciphertext));
  }

  /** Resolves with the index of the AAD candidate that authenticated. */
  async finish(tag: Uint8Array): Promise<number> {
    const { plaintext, aadIndex } = this.opener.final(tag);
    await this.deliver(plaintext);
    if (!this.failed) this.read(() => this.reader.end());
    if (this.failed) throw this.deferred;
    return aadIndex;
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
