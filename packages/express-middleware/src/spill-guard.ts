import { Transform, type TransformCallback } from 'node:stream';
import { ALG, ENC, JweError, type KeyResolver } from '@jwe-transport/codec';
import { spillTooLarge } from './errors.js';

/*
 * A streamed envelope can be decrypted as it arrives only when "protected", "iv" and "kid" come
 * before "ciphertext" (our encoders write them in that order). Otherwise the codec keeps the
 * ciphertext in a spill file until the end. This guard watches the envelope's top-level members
 * on the way in: it caps what would be spilled, and checks a late "kid" as soon as it is read,
 * rather than after the whole ciphertext has been stored.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Longest member value kept to look at; real ones ("kid", "iv", "protected") are far shorter. */
const KEPT_VALUE = 4096;

function protectedHasKid(text: string): boolean {
  try {
    const header = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof header?.kid === 'string';
  } catch {
    return false; // the codec reports a malformed header; here it only means "no kid yet"
  }
}

export class SpillGuard extends Transform {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectName = false;
  private name = '';
  /** The bytes of the string being read, while it is a member name or a kept value. */
  private text: number[] | undefined;
  private readonly seen = new Set<string>();
  private kidKnown = false;
  private inCiphertext = false;
  private spilling = false;
  private spilledChars = 0;
  private lateKid: string | undefined;

  constructor(
    private readonly maxSpill: number,
    private readonly resolver: KeyResolver,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    let error: Error | undefined;
    try {
      this.scan(chunk);
    } catch (caught) {
      error = caught as Error;
    }
    if (error || this.lateKid === undefined) {
      callback(error, error ? undefined : chunk);
      return;
    }
    const kid = this.lateKid;
    this.lateKid = undefined;
    Promise.resolve(this.resolver(kid, { alg: ALG, enc: ENC, kid })).then(
      (key) =>
        key === undefined
          ? callback(new JweError('ERR_KEY_UNKNOWN', 'No key is configured for the envelope\'s "kid".'))
          : callback(null, chunk),
      (failure: Error) => callback(failure),
    );
  }

  private scan(chunk: Buffer): void {
    for (let i = 0; i < chunk.length; i++) {
      if (this.inCiphertext && !this.escaped) {
        // Megabytes of base64url: jump to the next quote or backslash natively.
        const stop = nextSpecial(chunk, i);
        this.countSpill(stop - i);
        i = stop;
        if (i === chunk.length) return;
      }
      const c = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          this.endString();
          continue;
        }
        if (this.inCiphertext) this.countSpill(1);
        else if (this.text && this.text.length < KEPT_VALUE) this.text.push(c);
        continue;
      }
      if (c === QUOTE) this.startString();
      else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        this.depth++;
        this.expectName = this.depth === 1 && c === 0x7b;
      } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) this.depth--;
      else if (c === 0x2c /* , */ && this.depth === 1) this.expectName = true;
    }
  }

  private startString(): void {
    this.inString = true;
    if (this.depth !== 1) return;
    if (this.expectName) {
      this.text = [];
      return;
    }
    if (this.name === 'ciphertext') {
      this.inCiphertext = true;
      this.spilling = !(this.seen.has('protected') && this.seen.has('iv') && this.kidKnown);
    } else this.text = [];
  }

  private endString(): void {
    if (this.depth !== 1) return;
    const text = this.text ? Buffer.from(this.text).toString('utf8') : '';
    this.text = undefined;
    if (this.expectName) {
      this.name = text;
      this.expectName = false;
      return;
    }
    if (this.inCiphertext) {
      this.inCiphertext = false;
      this.seen.add('ciphertext');
      return;
    }
    this.seen.add(this.name);
    if (this.name === 'kid' || (this.name === 'protected' && protectedHasKid(text))) {
      this.kidKnown = true;
      if (this.name === 'kid' && this.seen.has('ciphertext')) this.lateKid = text;
    }
  }

  private countSpill(chars: number): void {
    if (!this.spilling) return;
    this.spilledChars += chars;
    // Four base64url characters carry three bytes of ciphertext.
    if (this.spilledChars * 0.75 > this.maxSpill) throw spillTooLarge(this.maxSpill);
  }
}

function nextSpecial(chunk: Buffer, from: number): number {
  const quote = chunk.indexOf(QUOTE, from);
  const backslash = chunk.indexOf(BACKSLASH, from);
  const end = quote === -1 ? chunk.length : quote;
  return backslash === -1 || backslash > end ? end : backslash;
}
