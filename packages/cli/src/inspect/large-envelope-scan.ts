import type { PartSummary } from '@jwe-transport/inspect-core';
import { Base64UrlAnalyzer } from '@jwe-transport/inspect-core/internal';
import { CliError } from '../cli-error.js';

/** Everything but the ciphertext is kept; more than this means the input is not an envelope. */
const SKELETON_LIMIT = 1024 * 1024;

enum State {
  Normal,
  InString,
  StringEscape,
  AfterCiphertextKey,
  BeforeCiphertextValue,
  InCiphertext,
}

/**
 * Reads a flattened envelope of any size in one pass, keeping all of it except the ciphertext's
 * text (the "skeleton", where the ciphertext becomes "") and checking the ciphertext as it goes
 * by. Envelope members are base64url, so a small JSON state machine is enough to find it.
 */
export class LargeEnvelopeScan {
  private skeleton: string[] = [];
  private skeletonLength = 0;
  private state = State.Normal;
  private depth = 0;
  private stringText = '';
  private stringTooLong = false;
  private readonly ciphertext = new Base64UrlAnalyzer();
  private sawCiphertext = false;

  feed(chunk: Uint8Array): void {
    const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    let kept = 0;
    let i = 0;
    while (i < text.length) {
      if (this.state === State.InCiphertext) {
        const end = text.indexOf('"', i);
        this.ciphertext.push(text.slice(i, end === -1 ? text.length : end));
        if (end === -1) return;
        this.state = State.Normal;
        kept = end;
        i = end + 1;
        continue;
      }
      const c = text[i]!;
      this.step(c);
      i++;
      // step() may just have entered the ciphertext; TypeScript cannot see that through the call.
      if ((this.state as State) === State.InCiphertext) {
        this.keep(text.slice(kept, i));
        kept = i;
      }
    }
    this.keep(text.slice(kept));
  }

  private keep(text: string): void {
    if (text === '') return;
    this.skeletonLength += text.length;
    if (this.skeletonLength > SKELETON_LIMIT) {
      throw new CliError(
        'ERR_NOT_AN_ENVELOPE',
        'The input is not an envelope: it has more than 1 MiB outside its ciphertext.',
      );
    }
    this.skeleton.push(text);
  }

  private step(c: string): void {
    switch (this.state) {
      case State.InString:
        if (c === '\\') this.state = State.StringEscape;
        else if (c === '"') this.endString();
        else if (this.stringText.length < 16) this.stringText += c;
        else this.stringTooLong = true;
        return;
      case State.StringEscape:
        this.stringTooLong = true;
        this.state = State.InString;
        return;
      case State.AfterCiphertextKey:
        if (c === ':') this.state = State.BeforeCiphertextValue;
        else if (!/\s/.test(c)) this.normal(c);
        return;
      case State.BeforeCiphertextValue:
        if (c === '"') {
          this.state = State.InCiphertext;
          this.sawCiphertext = true;
        } else if (!/\s/.test(c)) this.normal(c);
        return;
      default:
        this.normal(c);
    }
  }

  private normal(c: string): void {
    this.state = State.Normal;
    if (c === '{' || c === '[') this.depth++;
    else if (c === '}' || c === ']') this.depth--;
    else if (c === '"') {
      this.state = State.InString;
      this.stringText = '';
      this.stringTooLong = false;
    }
  }

  private endString(): void {
    const isCiphertextKey =
      this.depth === 1 && !this.stringTooLong && this.stringText === 'ciphertext' && !this.sawCiphertext;
    this.state = isCiphertextKey ? State.AfterCiphertextKey : State.Normal;
  }

  /** The envelope with an empty ciphertext, and what the real ciphertext was like. */
  finish(): { skeleton: string; ciphertext: PartSummary | undefined } {
    const skeleton = Buffer.from(this.skeleton.join(''), 'latin1').toString('utf8');
    return { skeleton, ciphertext: this.sawCiphertext ? this.ciphertext.finish() : undefined };
  }
}
