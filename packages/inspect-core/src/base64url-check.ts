import { fromBase64Url } from './bytes.js';

/** What is wrong with a base64url member, and its decoded length, gathered one piece of text at a time. */
export interface PartSummary {
  chars: number;
  /** Decoded length in bytes (what a lenient decoder would produce). */
  length: number;
  problems: string[];
}

/** A member's bytes, decoded leniently so a report can still show lengths, and what is wrong with its encoding. */
export interface DecodedPart extends PartSummary {
  bytes: Uint8Array;
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const UNUSUAL = /[^A-Za-z0-9_-]/;

/**
 * Checks base64url text fed in pieces, so a ciphertext of any size can be checked in a stream. The
 * common case (only URL-alphabet characters) costs one native regular-expression scan per piece.
 */
export class Base64UrlAnalyzer {
  private chars = 0;
  private usable = 0;
  private whitespace = false;
  private padding = false;
  private standardAlphabet = false;
  private foreign = false;
  private last = '';

  push(text: string): void {
    this.chars += text.length;
    if (!UNUSUAL.test(text)) {
      this.usable += text.length;
      if (text.length > 0) this.last = text[text.length - 1]!;
      return;
    }
    for (const c of text) {
      if (/\s/.test(c)) this.whitespace = true;
      else if (c === '=') this.padding = true;
      else if (c === '+' || c === '/') {
        this.standardAlphabet = true;
        this.usable++;
        this.last = c === '+' ? '-' : '_';
      } else if (UNUSUAL.test(c)) this.foreign = true;
      else {
        this.usable++;
        this.last = c;
      }
    }
  }

  finish(): PartSummary {
    const problems: string[] = [];
    if (this.whitespace) problems.push('contains whitespace');
    if (this.padding) problems.push('has "=" padding, which base64url in JOSE omits');
    if (this.standardAlphabet)
      problems.push('uses the standard alphabet ("+" or "/") instead of "-" and "_"');
    if (this.foreign) problems.push('contains characters outside base64url');
    const rest = this.usable % 4;
    if (rest === 1) problems.push(`has an impossible length (${this.usable} characters)`);
    if (rest === 2 || rest === 3) {
      const value = URL_ALPHABET.indexOf(this.last);
      if ((value & (rest === 2 ? 15 : 3)) !== 0)
        problems.push('ends with non-zero trailing bits (not canonical)');
    }
    const length = Math.floor(this.usable / 4) * 3 + (rest === 2 ? 1 : rest === 3 ? 2 : 0);
    return { chars: this.chars, length, problems };
  }
}

export function checkBase64Url(text: string): DecodedPart {
  const analyzer = new Base64UrlAnalyzer();
  analyzer.push(text);
  const summary = analyzer.finish();
  const usable = text
    .replace(/[\s=]/g, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/[^A-Za-z0-9_-]/g, '');
  return { ...summary, bytes: fromBase64Url(usable) };
}
