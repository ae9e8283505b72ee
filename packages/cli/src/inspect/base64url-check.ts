/** A member's bytes, decoded leniently so a report can still show lengths, and what is wrong with its encoding. */
export interface DecodedPart {
  bytes: Buffer;
  problems: string[];
}

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function checkBase64Url(text: string): DecodedPart {
  const problems: string[] = [];
  if (/\s/.test(text)) problems.push('contains whitespace');
  if (text.includes('=')) problems.push('has "=" padding, which base64url in JOSE omits');
  if (/[+/]/.test(text)) problems.push('uses the standard alphabet ("+" or "/") instead of "-" and "_"');
  const cleaned = text.replace(/[\s=]/g, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (/[^A-Za-z0-9_-]/.test(cleaned)) problems.push('contains characters outside base64url');
  const usable = cleaned.replace(/[^A-Za-z0-9_-]/g, '');
  if (usable.length % 4 === 1) problems.push(`has an impossible length (${usable.length} characters)`);
  const rest = usable.length % 4;
  if (rest !== 0 && rest !== 1) {
    const last = URL_ALPHABET.indexOf(usable[usable.length - 1]!);
    if ((last & (rest === 2 ? 15 : 3)) !== 0)
      problems.push('ends with non-zero trailing bits (not canonical)');
  }
  return { bytes: Buffer.from(usable, 'base64url'), problems };
}
