import { tooLarge } from '../errors.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NAME_LIMIT = 64;
const KID_LIMIT = 1024;

export interface GuardLimits {
  /** Largest envelope, in bytes. */
  limit: number;
  /** Largest ciphertext (as sent, base64url) kept on disk before the key is known. */
  maxSpill: number;
  /** Throws (or rejects) when the server has no key for `kid`. */
  checkKid: (kid: string) => void | Promise<void>;
}

/**
 * Watches an envelope's top-level members as it streams past, without holding it. The codec
 * decodes it; this only enforces what the codec cannot know about the server: the body limit,
 * a cap on the ciphertext kept in a spill file while `kid`, `iv` or `protected` are still to
 * come, and an unknown `kid` refused as soon as it is read rather than after the whole upload.
 */
export class EnvelopeGuard {
  private received = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectName = false;
  private name = '';
  private collecting: 'name' | 'kid' | undefined;
  private kidBytes: number[] = [];
  private readonly seen = new Set<string>();
  private inCiphertext = false;
  private spilling = false;
  private spilled = 0;

  constructor(private readonly limits: GuardLimits) {}

  /** Looks at the next chunk; resolves when it may be handed on. */
  async feed(chunk: Uint8Array): Promise<void> {
    this.received += chunk.length;
    if (this.received > this.limits.limit) throw tooLarge(this.limits.limit, this.received);
    let at = 0;
    while (at < chunk.length) {
      if (this.inString) {
        at = await this.scanString(chunk, at);
        continue;
      }
      const byte = chunk[at++]!;
      if (byte === QUOTE) this.startString();
      else if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) {
        this.depth++;
        if (this.depth === 1) this.expectName = true;
      } else if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) this.depth--;
      else if (byte === 0x2c /* , */ && this.depth === 1) this.expectName = true;
    }
  }

  private startString(): void {
    this.inString = true;
    this.escaped = false;
    if (this.depth !== 1) return;
    if (this.expectName) {
      this.collecting = 'name';
      this.name = '';
    } else if (this.name === 'kid') {
      this.collecting = 'kid';
      this.kidBytes = [];
    } else if (this.name === 'ciphertext') {
      this.inCiphertext = true;
      // The codec streams only when it knows the key and the authenticated data before the ciphertext.
      this.spilling = !(this.seen.has('protected') && this.seen.has('iv') && this.seen.has('kid'));
    }
  }

  private async scanString(chunk: Uint8Array, at: number): Promise<number> {
    if (this.collecting === undefined && !this.escaped) {
      // The long ciphertext: jump to the next quote or backslash instead of stepping byte by byte.
      let stop = chunk.indexOf(QUOTE, at);
      const backslash = chunk.indexOf(BACKSLASH, at);
      if (backslash !== -1 && (stop === -1 || backslash < stop)) stop = backslash;
      const end = stop === -1 ? chunk.length : stop;
      this.countSpill(end - at);
      if (stop === -1) return chunk.length;
      at = stop;
    }
    const byte = chunk[at]!;
    if (this.escaped) this.escaped = false;
    else if (byte === BACKSLASH) this.escaped = true;
    else if (byte === QUOTE) {
      await this.endString();
      return at + 1;
    }
    if (this.collecting === 'name' && this.name.length < NAME_LIMIT) this.name += String.fromCharCode(byte);
    else if (this.collecting === 'kid' && this.kidBytes.length < KID_LIMIT) this.kidBytes.push(byte);
    else this.countSpill(1);
    return at + 1;
  }

  private countSpill(bytes: number): void {
    if (!this.inCiphertext || !this.spilling) return;
    this.spilled += bytes;
    if (this.spilled > this.limits.maxSpill) {
      const error = tooLarge(
        this.limits.maxSpill,
        this.spilled,
        'The ciphertext sent before "kid", "iv" or "protected"',
      );
      error.message +=
        ' Put "protected", "iv" and "kid" before "ciphertext" (as jwe-transport, jose and jwcrypto do) so that it streams.';
      throw error;
    }
  }

  private async endString(): Promise<void> {
    this.inString = false;
    const collected = this.collecting;
    this.collecting = undefined;
    if (this.depth !== 1) return;
    if (collected === 'name') {
      this.expectName = false;
      return;
    }
    this.seen.add(this.name);
    if (this.name === 'ciphertext') this.inCiphertext = false;
    if (collected === 'kid') await this.checkKid();
    this.name = '';
  }

  private async checkKid(): Promise<void> {
    let kid: unknown;
    try {
      kid = JSON.parse(`"${new TextDecoder().decode(Uint8Array.from(this.kidBytes))}"`);
    } catch {
      return; // Not a valid string: the codec refuses the envelope with the right error.
    }
    if (typeof kid === 'string') await this.limits.checkKid(kid);
  }
}
