/*
 * The file member of an encrypted upload is standard base64 with padding (spec 2.3). Buffer's
 * decoder is lenient (whitespace, the URL alphabet, stray characters), so the text is checked
 * first: one pass over its characters, because a regular expression backtracks through its stack
 * on the multi-megabyte strings uploads carry.
 */

const VALUES = new Int8Array(128).fill(-1);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) {
  VALUES[c.charCodeAt(0)] = i;
}
const PAD = 61; // '='

/** Whether `text` is canonical standard base64: padded, no whitespace, no trailing bits set. */
export function isStandardBase64(text: string): boolean {
  const length = text.length;
  if (length % 4 !== 0) return false;
  let data = length;
  if (length > 0 && text.charCodeAt(length - 1) === PAD) data -= text.charCodeAt(length - 2) === PAD ? 2 : 1;
  for (let i = 0; i < data; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || VALUES[c]! < 0) return false;
  }
  // One '=' leaves 2 spare bits in the last character, two leave 4: they must be zero.
  const rest = length - data;
  if (rest === 0) return true;
  const last = VALUES[text.charCodeAt(data - 1)]!;
  return (last & (rest === 1 ? 3 : 15)) === 0;
}
