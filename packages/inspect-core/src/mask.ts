/*
 * Hides personal identifiers before a screenshot or an export: 12-digit Aadhaar-like numbers,
 * phone numbers and e-mail addresses. It is a convenience for sharing, not an anonymizer: the
 * patterns are deliberately broad (a 12-digit order number is masked too) and names, addresses
 * and free text are left alone.
 */

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
/** 12 digits, optionally grouped 4-4-4 by spaces or hyphens, not part of a longer number. */
const AADHAAR = /(?<![\d])\d{4}[ -]?\d{4}[ -]?\d{4}(?![\d])/g;
/** An optional +country code, then 10 to 12 digits with single spaces or hyphens between them, not part of a longer number. */
const PHONE = /(?<![\w+])(?:\+\d{1,3}[ -]?)?\(?\d(?:[ -]?\)?[ -]?\d){9,11}(?![\d])/g;

function keepShape(match: string, visibleDigits: number): string {
  let digitsLeft = match.replace(/\D/g, '').length - visibleDigits;
  let out = '';
  for (const c of match) {
    if (/\d/.test(c) && digitsLeft > 0) {
      out += '•';
      digitsLeft--;
    } else out += c;
  }
  return out;
}

/** The text with identifiers replaced: digits by "•" (the last 4 of an Aadhaar-like number stay, as on printed cards), e-mails by "•••@domain". */
export function maskIdentifiers(text: string): string {
  return text
    .replace(EMAIL, (email) => `•••@${email.slice(email.indexOf('@') + 1)}`)
    .replace(AADHAAR, (match) => keepShape(match, 4))
    .replace(PHONE, (match) => (match.replace(/\D/g, '').length >= 10 ? keepShape(match, 0) : match));
}

/** A JSON value with every string (and every number with the digits of an identifier) masked. */
export function maskValue(value: unknown): unknown {
  if (typeof value === 'string') return maskIdentifiers(value);
  if (typeof value === 'number' && Number.isInteger(value) && String(Math.abs(value)).length >= 10)
    return maskIdentifiers(String(value));
  if (Array.isArray(value)) return value.map(maskValue);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(value)) out[name] = maskValue(member);
    return out;
  }
  return value;
}
